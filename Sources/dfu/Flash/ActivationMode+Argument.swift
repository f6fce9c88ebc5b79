import DFUCore

/// `--mode test-confirm|confirm-only|test-only|upload-only`, spelled as the JSON events name it.
extension ActivationMode: ExpressibleByArgument {
    init?(argument: String) { self.init(rawValue: argument.lowercased()) }
    static var expectedValue: String { allValueStrings.joined(separator: ", ") }
    static var allValueStrings: [String] { allCases.map(\.rawValue) }
    var helpDescription: String { rawValue }
}
