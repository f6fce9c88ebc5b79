import DFUCore

/// `--mode test-confirm|confirm-only|test-only|upload-only`, spelled as the JSON events name it.
extension ActivationMode: ExpressibleByArgument {
    init?(argument: String) { self.init(rawValue: argument.lowercased()) }
    static var expectedValue: String { allCases.map(\.rawValue).joined(separator: ", ") }
    var helpDescription: String { rawValue }
}
