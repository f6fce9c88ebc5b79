import DFUCore

/// `--protocol smp|nordic`, spelled as `dfu info --json` names it.
extension UpdateProtocolName: ExpressibleByArgument {
    init?(argument: String) { self.init(rawValue: argument.lowercased()) }
    static var expectedValue: String { allCases.map(\.rawValue).joined(separator: ", ") }
    var helpDescription: String { rawValue }
}
