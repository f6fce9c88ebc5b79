@testable import ArgumentParsing
import Testing

/// What the shell completions offer for a value, read from its declaration.
@Suite struct ValueCompletionTests {
    private func option(valueName: String, allValues: [String] = []) -> ArgumentDefinition {
        ArgumentDefinition(path: ["x"], kind: .option(valueName: valueName), longName: "x", shortName: nil,
                           help: "", defaultValue: .required, convert: { $0 }, expectedValue: "",
                           allValues: allValues)
    }

    @Test func completionValuesComeFromTheTypeOrALiteralValueName() {
        #expect(ValueCompletion(option(valueName: "MODE", allValues: ["a", "b"])) == .choices(["a", "b"]))
        #expect(ValueCompletion(option(valueName: "on|off")) == .choices(["on", "off"]))
        #expect(ValueCompletion(option(valueName: "1M|2M")) == .choices(["1M", "2M"]))
        #expect(ValueCompletion(option(valueName: "plain|bonds|bonds-unpaired"))
            == .choices(["plain", "bonds", "bonds-unpaired"]))
        // A placeholder among the alternatives: nothing to offer.
        #expect(ValueCompletion(option(valueName: "SECONDS|off")) == .none)
        #expect(ValueCompletion(option(valueName: "udp:HOST:PORT|bluez:hciN")) == .none)
        #expect(ValueCompletion(option(valueName: "PUB.pem")) == .files)
        #expect(ValueCompletion(option(valueName: "FILE")) == .files)
        #expect(ValueCompletion(option(valueName: "M.m.r[+b]")) == .none)
        #expect(ValueCompletion(option(valueName: "SECONDS")) == .none)
    }
}
