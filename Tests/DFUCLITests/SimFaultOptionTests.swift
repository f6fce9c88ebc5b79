// In-process tests of the `dfu` executable target (see DeviceSpecTests.swift for the condition).
#if DFU_CLI_UNIT_TESTS
import ArgumentParsing
import Testing
@testable import dfu

/// `dfu sim --fault`, repeatable, reaches the device as the `sim:` key does.
@Suite struct SimFaultOptionTests {
    /// `dfu sim --fault a --fault b` builds the same device as `--device sim:fault=a+b`.
    @Test func simFaultGivenTwiceGivesTheDeviceBothFaults() throws {
        let command = try SimCommand.parse(
            ["--serve", "udp:127.0.0.1:0", "--fault", "disconnect@40%", "--fault", "reboot@60%+stall@1000"])
        let options = try command.device.options()
        #expect(options.faults.map(\.description) == ["disconnect@40%", "reboot@60%", "stall@1000"])
        #expect(options.canonicalText.hasSuffix(",fault=disconnect@40%+reboot@60%+stall@1000"))
    }
}
#endif
