import DFUCore

/// `--protocol smp|nordic`, spelled as `dfu info --json` names it.
extension UpdateProtocolName: ExpressibleByArgument {
    init?(argument: String) { self.init(rawValue: argument.lowercased()) }
    static var expectedValue: String { allValueStrings.joined(separator: ", ") }
    static var allValueStrings: [String] { allCases.map(\.rawValue) }
    var helpDescription: String { rawValue }
}
