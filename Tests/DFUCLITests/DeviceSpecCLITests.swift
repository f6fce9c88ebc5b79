import Foundation
import Testing

/// `--device` as users meet it on the command line of the built binary.
@Suite struct DeviceSpecCLITests {
    /// `verify` works offline: the device flags are not part of it.
    @Test func verifyDoesNotTakeDeviceOptions() throws {
        let run = try DFURun.run(["verify", "firmware-samples/images/blinky-ed25519-1.1.0.signed.bin", "--device", "sim"])
        #expect(run.exitCode == 2)
        #expect(run.stderr.contains("dfu: error: unknown option '--device'"))
        #expect(run.stdout.isEmpty)
    }
}
