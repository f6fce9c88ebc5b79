import BlueZStandIn
import Harness
import Testing
import Transport

/// Order across the two ways a `BlueZLink` writes: Write Commands through the AcquireWrite fd and
/// a Write Request through D-Bus. bluetoothd reads the fd one datagram per main-loop turn, so a
/// request sent while datagrams are unread would reach the device first (a Nordic Control Point
/// checksum request before the Packet writes it checks).
@Suite(.enabled(if: standInAvailable, standInSkipReason))
struct BlueZBusOrderTests {
    @Test func aWriteRequestReachesTheDeviceAfterTheCommandsWrittenBeforeIt() async throws {
        let timing = BlueZStandInTiming(socketReadPause: .milliseconds(5))
        try await BlueZStandInBench.run(timing: timing) { bench in
            let peripheral = try await bench.addTestPeripheral(address: BlueZBus.address)
            let central = try await BlueZBus.open(bench)
            let link = try await BlueZBus.connect(central.connector(expecting: [BlueZBus.smpService]))
            let commands = numberedWrites(12, size: 20)
            try await HangGuard.within("the commands and the request") {
                for value in commands { try await link.writeWithoutResponse(value, to: BlueZBus.smp) }
                try await link.write([0xAA], to: BlueZTestPeripheral.control)
            }
            try await HangGuard.within("13 writes at the device") { await peripheral.waitForWrites(commands.count + 1) }
            let writes = await peripheral.writes
            #expect(writes.map(\.value) == commands + [[0xAA]])
            #expect(writes.last?.withResponse == true)
            let statistics = try await bench.requireStandIn().statistics(address: BlueZBus.address)
            #expect(statistics.fdWrites == commands.count)
            await link.disconnect()
            central.close()
        }
    }
}
