import ArgumentParsing
import DFUCore

/// `--protocol smp|nordic`, spelled as `dfu info --json` names it.
// `public`: a public type's conformance to a public protocol (DFUCore's type, ArgumentParsing's protocol).
extension UpdateProtocolName: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
    public static var expectedValue: String { allValueStrings.joined(separator: ", ") }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
    public var helpDescription: String { rawValue }
}
