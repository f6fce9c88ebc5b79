import ArgumentParsing
import DFUCore

/// `--mode test-confirm|confirm-only|test-only|upload-only`, spelled as the JSON events name it.
// `public`: a public type's conformance to a public protocol (DFUCore's type, ArgumentParsing's protocol).
extension ActivationMode: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
    public static var expectedValue: String { allValueStrings.joined(separator: ", ") }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
    public var helpDescription: String { rawValue }
}
