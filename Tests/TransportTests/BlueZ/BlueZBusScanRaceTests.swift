import BlueZStandIn
import Harness
import Testing
import Transport

/// A controller that reports a device already advertising once per scan start, and loses that
/// report (the rig's race, test-bluez.md): dfu's discovery starts again every few seconds, so the
/// device is heard at a later start instead of never (the retry after a refused pairing on the
/// rig: "could not connect in time" while the device advertised).
@Suite(.enabled(if: standInAvailable, standInSkipReason))
struct BlueZBusScanRaceTests {
    @Test func aDeviceWhoseFirstReportsAreLostIsFoundAtALaterScanStart() async throws {
        try await BlueZStandInBench.run { bench in
            try await bench.addTestPeripheral(address: BlueZBus.address) { $0.scanStartsMissed = 2 }
            let central = try await BlueZBus.open(bench)
            let connector = central.connector(expecting: [BlueZBus.smpService])
            let started = ContinuousClock.now
            let link = try await HangGuard.within("connect") {
                try await connector.connect(to: PeerIdentity(BlueZBus.address), deadline: .now + .seconds(30))
            }
            // Heard at the third start: two restarts, 4 s apart.
            #expect(ContinuousClock.now - started >= .seconds(8))
            await link.disconnect()
            central.close()
        }
    }
}
