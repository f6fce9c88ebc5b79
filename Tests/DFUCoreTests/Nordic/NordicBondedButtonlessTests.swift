@testable import DFUCore
import DeviceSim
import ExitCodes
import Testing
import Transport

extension EngineTests {
    /// Buttonless DFU with bonds (8EC90004, `ble_dfu_bonded.c`; nordic-secure-dfu.md §1.2, §1.3)
    /// against the virtual nRF52: only a bonded central may enter, and the bootloader (built with
    /// `NRF_DFU_BLE_REQUIRES_BONDS`) answers at the application's own address.
    @Suite(.timeLimit(.minutes(1))) struct NordicBondedButtonlessTests {
        @Test func aBondedCentralEntersAndTheBootloaderKeepsTheAddress() async throws {
            let bench = try await NordicSimEngineTests.bench("buttonless=bonds")
            #expect(bench.sim.bootloaderIdentity == bench.sim.applicationIdentity)
            let outcome = try await NordicSimEngineTests.flash(bench)
            #expect(outcome.exitStatus == .success, "\(String(describing: outcome.error))")
            let device = await bench.sim.snapshot
            #expect(device.applicationVersion == 3)
            #expect(device.boots.map(\.target) == [.bootloader, .application(version: 3)])
        }

        @Test func aCentralThatIsNotBondedIsToldToPairFirst() async throws {
            let bench = try await NordicSimEngineTests.bench("buttonless=bonds-unpaired")
            let outcome = try await NordicSimEngineTests.flash(bench)
            #expect(outcome.exitStatus == .deviceRejected)
            let message = outcome.error.map { "\($0)" } ?? ""
            #expect(message.contains("not bonded") || message.contains("0x07") || message.contains("07"), "\(message)")
            #expect(message.contains("dfu pair"), "\(message)")
            // Nothing was sent: the application still runs, never reset.
            #expect(await bench.sim.snapshot.boots.isEmpty)
        }

        @Test func theBootloaderNameCannotBeSetWithBondsAndTheUpdateGoesOn() async throws {
            let bench = try await NordicSimEngineTests.bench("buttonless=bonds")
            let outcome = try await NordicSimEngineTests.flash(bench) { $0.bootloaderName = "DfuFactory" }
            #expect(outcome.exitStatus == .success, "\(String(describing: outcome.error))")
            #expect(await bench.sim.snapshot.bootloaderName == "DfuTarg")
            #expect(await bench.sim.snapshot.applicationVersion == 3)
        }
    }
}
