@testable import DFUCore
import DeviceSim
import Testing
import Transport

extension EngineTests {
    /// The device loses power as the final Execute arrives (faults:
    /// `serial-nordic-power-cycle-at-activation` and its USB twin): the bootloader never executes
    /// the last object and the device starts its old application, which says nothing on the line.
    /// Over a UART the Execute's deadline ends the run (exit 6); over USB the port vanished with the
    /// power, the transfer ended `unconfirmed`, and dfu reported the update done (exit 0) of a
    /// device running its old application. Nothing on a serial line can show the update was
    /// activated, so both are exit 6; the user puts the device back into DFU mode and the same
    /// command finishes it.
    @Suite(.timeLimit(.minutes(1))) struct NordicSerialPowerCutTests {
        @Test(arguments: [false, true]) func aPowerCutAtTheFinalExecuteIsResumableNotDone(overUSB: Bool) async throws {
            var serving = SerialServeOptions.fastLine
            serving.vanishesOnReset = overUSB
            let bench = try await NordicSerialEngineBench.make(serving: serving)
            let cut = SerialPowerCutAtFinalExecute(inner: bench.pipe.connector, server: bench.server)
            let first = try await bench.flash(through: cut)
            #expect(cut.fired, "the power cut came at the final Execute")
            #expect(first.exitStatus == .transferInterrupted, "\(String(describing: first.error))")
            #expect(!first.events.contains { if case .firmwareReported = $0 { true } else { false } })
            let running = try await bench.settled()
            #expect(running.applicationVersion == 1, "the device runs its old application")
            #expect(bench.serverEvents.all.contains(.portVanished) == overUSB)

            // As the user does: the DFU button held through a reset, then the same command.
            await bench.server.powerCycle(enterBootloader: true)
            _ = try await bench.settled()
            let rerun = try await bench.flash()
            #expect(rerun.exitStatus == .success, "\(String(describing: rerun.error))")
            #expect(try await bench.settled().applicationVersion == 3)
            await bench.server.stop()
        }
    }
}
