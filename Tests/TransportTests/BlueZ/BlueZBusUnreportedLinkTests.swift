import BlueZStandIn
import Harness
import Testing
import Transport

/// A link bluetoothd 5.66 makes without ever signalling Connected=true (device.c `att_connect_cb`
/// runs before the kernel's Device Connected event; seen on the rig, where bleak gives such links
/// up): `BlueZConnector+Establish` goes on with it, and still notices when it drops.
@Suite(.enabled(if: standInAvailable, standInSkipReason))
struct BlueZBusUnreportedLinkTests {
    /// ServicesResolved=true comes as usual, and it means connected: the first Connect is used.
    @Test func aLinkWhoseServicesResolveIsUsedThoughConnectedWasNeverSignalled() async throws {
        let lines = try await connectUsingTheFirstLink(timing: BlueZStandInTiming())
        #expect(!lines.contains { $0.contains("retrying") })
    }

    /// Services slower than the 5 s grace: bluetoothd is asked, says connected, and the link is
    /// used once its services resolve; not dropped and dialled again.
    @Test func slowServicesOnAnUnreportedLinkAreWaitedFor() async throws {
        let lines = try await connectUsingTheFirstLink(timing: BlueZStandInTiming(servicesResolveDelay: .seconds(6)))
        #expect(lines.contains { $0.contains("without reporting it") && $0.contains("going on") })
    }

    /// Connects to a device whose links bluetoothd never reports; checks the first Connect's link
    /// was used (no Disconnect, no second Connect) and works; returns what the connector logged.
    private func connectUsingTheFirstLink(timing: BlueZStandInTiming) async throws -> [String] {
        try await BlueZStandInBench.run(timing: timing) { bench in
            try await bench.addTestPeripheral(address: BlueZBus.address) { $0.connectedUnreported = true }
            let central = try await BlueZBus.open(bench)
            let lines = BlueZBus.Lines()
            let link = try await BlueZBus.connect(central.connector(expecting: [BlueZBus.smpService]) { lines.append($0) })
            #expect(try await link.read(BlueZTestPeripheral.battery) == [80])
            let statistics = try await bench.requireStandIn().statistics(address: BlueZBus.address)
            #expect(statistics.connectCalls == 1)
            #expect(statistics.disconnectCalls == 0)
            await link.disconnect()
            central.close()
            return lines.all
        }
    }

    /// An unreported link that drops before its services resolve: bluetoothd's Connected=false
    /// repeats the value we hold, yet the connector sees it and tries again at once rather than
    /// waiting out the deadline on a link that is gone.
    @Test func anUnreportedLinkThatDropsIsDialledAgainBeforeTheDeadline() async throws {
        try await BlueZStandInBench.run(timing: BlueZStandInTiming(servicesResolveDelay: .seconds(30))) { bench in
            try await bench.addTestPeripheral(address: BlueZBus.address) { $0.connectedUnreported = true }
            let standIn = try bench.requireStandIn()
            let central = try await BlueZBus.open(bench)
            let lines = BlueZBus.Lines()
            let connector = central.connector(expecting: [BlueZBus.smpService]) { lines.append($0) }
            let attempt = Task {
                await HangGuardResult.of {
                    try await connector.connect(to: PeerIdentity(BlueZBus.address), deadline: .now + .seconds(12))
                }
            }
            try await HangGuard.within("the connector going on with the unreported link") {
                while !lines.all.contains(where: { $0.contains("without reporting it") }) {
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
            await standIn.dropLink(address: BlueZBus.address)
            try await HangGuard.within("a second Connect after the drop", .seconds(4)) {
                while await standIn.statistics(address: BlueZBus.address).connectCalls < 2 {
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
            // Its services never resolve in time: the whole connect times out.
            #expect(await attempt.value == .timeout)
            central.close()
        }
    }
}
