import BlueZStandIn
import Harness
import Testing
import Transport

/// `BlueZLink` against the stand-in: writes through the AcquireWrite fd with back-pressure, the
/// WriteValue fallback, notifications by fd or by signal, and the end of the link.
@Suite(.enabled(if: standInAvailable, standInSkipReason))
struct BlueZBusLinkTests {
    @Test func manyWritesThroughTheFdArriveInOrderNoneLost() async throws {
        try await BlueZStandInBench.run { bench in
            let peripheral = try await bench.addTestPeripheral(address: BlueZBus.address)
            let central = try await BlueZBus.open(bench)
            let link = try await BlueZBus.connect(central.connector(expecting: [BlueZBus.smpService]))
            let writes = numberedWrites(500, size: link.parameters.maxWriteWithoutResponse)
            try await HangGuard.within("500 writes") {
                for value in writes { try await link.writeWithoutResponse(value, to: BlueZBus.smp) }
            }
            try await HangGuard.within("500 writes at the device") { await peripheral.waitForWrites(writes.count) }
            #expect(await peripheral.writes.map(\.value) == writes)
            let statistics = try await bench.requireStandIn().statistics(address: BlueZBus.address)
            #expect(statistics.fdWrites == 500)
            #expect(statistics.writeCommands == 0)
            await link.disconnect()
            central.close()
        }
    }

    /// The device takes nothing until the test moves its clock, so the fd's small buffer fills and
    /// the writer must wait for writability (EAGAIN); everything arrives once the device drains.
    @Test func aStalledDeviceHoldsTheWriterBackAndLosesNothing() async throws {
        let clock = LinkClock.manual()
        try await BlueZStandInBench.run(connector: MemoryConnector(clock: clock)) { bench in
            let peripheral = try await bench.addTestPeripheral(address: BlueZBus.address)
            let central = try await BlueZBus.open(bench)
            // Connecting subscribes (StartNotify: a write request the device answers in model time).
            let ticker = Task {
                while !Task.isCancelled {
                    clock.advance(by: .microseconds(7_500))
                    try? await Task.sleep(for: .milliseconds(1))
                }
            }
            let link = try await BlueZBus.connect(central.connector(expecting: [BlueZBus.smpService]))
            ticker.cancel()
            let writes = numberedWrites(80, size: link.parameters.maxWriteWithoutResponse)
            let writer = Task {
                for value in writes { try await link.writeWithoutResponse(value, to: BlueZBus.smp) }
            }
            try await HangGuard.within("the device to drain the writes") {
                while await peripheral.writes.count < writes.count {
                    clock.advance(by: .microseconds(7_500))
                    try await Task.sleep(for: .milliseconds(1))
                }
            }
            try await writer.value
            #expect(await peripheral.writes.map(\.value) == writes)
            await link.disconnect()
            central.close()
        }
    }

    @Test func writeValueCommandsWhenAcquireWriteIsRefused() async throws {
        try await BlueZStandInBench.run { bench in
            let peripheral = try await bench.addTestPeripheral(address: BlueZBus.address) {
                $0.refuseAcquireWrite = .notSupported
            }
            let central = try await BlueZBus.open(bench)
            let link = try await BlueZBus.connect(central.connector(expecting: [BlueZBus.smpService]))
            let writes = numberedWrites(100, size: link.parameters.maxWriteWithoutResponse)
            try await HangGuard.within("100 writes") {
                for value in writes { try await link.writeWithoutResponse(value, to: BlueZBus.smp) }
            }
            try await HangGuard.within("100 writes at the device") { await peripheral.waitForWrites(writes.count) }
            #expect(await peripheral.writes.map(\.value) == writes)
            let statistics = try await bench.requireStandIn().statistics(address: BlueZBus.address)
            #expect(statistics.writeCommands == 100)
            #expect(statistics.fdWrites == 0)
            await link.disconnect()
            central.close()
        }
    }

    /// bluetoothd 5.66 never answers an AcquireNotify whose CCC needs security, then crashes
    /// (bluez-dbus.md §9): an unpaired device, which may need it, is subscribed with StartNotify.
    @Test func anUnpairedDeviceIsSubscribedWithStartNotifyNeverAcquireNotify() async throws {
        try await BlueZStandInBench.run { bench in
            let peripheral = try await bench.addTestPeripheral(address: BlueZBus.address, echo: true)
            let central = try await BlueZBus.open(bench)
            let link = try await BlueZBus.connect(central.connector(expecting: [BlueZBus.smpService]))
            try await BlueZBus.echoes(link, count: 30)
            let statistics = try await bench.requireStandIn().statistics(address: BlueZBus.address)
            #expect(statistics.acquireNotifyCalls == 0)
            #expect(statistics.startNotifyCalls == 1)
            #expect(statistics.signalNotifications == 30)
            #expect(statistics.fdNotifications == 0)
            #expect(await peripheral.subscriptions == [BlueZBus.smp])
            await link.disconnect()
            central.close()
        }
    }

    @Test func notificationsThroughStartNotifyWhenAcquireNotifyIsRefused() async throws {
        try await BlueZStandInBench.run { bench in
            try await bench.addTestPeripheral(address: BlueZBus.address, echo: true) {
                $0.refuseAcquireNotify = .failed("Operation failed")
            }
            let central = try await BlueZBus.open(bench)
            let link = try await BlueZBus.connect(central.connector(expecting: [BlueZBus.smpService]))
            try await BlueZBus.echoes(link, count: 30)
            let statistics = try await bench.requireStandIn().statistics(address: BlueZBus.address)
            #expect(statistics.signalNotifications == 30)
            #expect(statistics.fdNotifications == 0)
            #expect(statistics.startNotifyCalls == 1)
            await link.disconnect()
            central.close()
        }
    }

    /// The device drops the link: exactly one `.disconnected`, the stream ends, and every later
    /// call fails with `.disconnected`.
    @Test func linkLossIsOneDisconnectedThenEveryCallThrows() async throws {
        try await BlueZStandInBench.run { bench in
            let peripheral = try await bench.addTestPeripheral(address: BlueZBus.address)
            let central = try await BlueZBus.open(bench)
            let link = try await BlueZBus.connect(central.connector(expecting: [BlueZBus.smpService]))
            try await link.subscribe(BlueZBus.smp)
            await peripheral.dropLink()
            let events = try await BlueZBus.eventsUntilDisconnected(link)
            #expect(events.count == 1)
            guard case .disconnected = events.last?.kind else {
                Issue.record("the last event is not .disconnected: \(events)")
                return
            }
            await expectDisconnected { try await link.writeWithoutResponse([1], to: BlueZBus.smp) }
            await expectDisconnected { try await link.write([1], to: BlueZTestPeripheral.control) }
            await expectDisconnected { _ = try await link.read(BlueZTestPeripheral.battery) }
            await expectDisconnected { try await link.subscribe(BlueZTestPeripheral.battery) }
            central.close()
        }
    }

    /// bluetoothd keeps a StartNotify session across a disconnect and arms it again on the next
    /// connection; 5.66 crashes when that connection fails while it does (seen on the rig). The
    /// connector stops the old session before it reconnects, and the new link subscribes afresh.
    @Test func aReconnectLeavesNoOldNotifySessionForBluetoothdToArm() async throws {
        try await BlueZStandInBench.run { bench in
            let peripheral = try await bench.addTestPeripheral(address: BlueZBus.address, echo: true)
            let central = try await BlueZBus.open(bench)
            let connector = central.connector(expecting: [BlueZBus.smpService])
            let first = try await BlueZBus.connect(connector)
            try await BlueZBus.echoes(first, count: 3)
            await peripheral.dropLink()
            _ = try await BlueZBus.eventsUntilDisconnected(first)
            let second = try await BlueZBus.connect(connector)
            try await BlueZBus.echoes(second, count: 3)
            let statistics = try await bench.requireStandIn().statistics(address: BlueZBus.address)
            #expect(statistics.connections == 2)
            #expect(statistics.notifySessionsRearmed == 0)
            #expect(statistics.startNotifyCalls == 2)
            #expect(statistics.signalNotifications == 6)
            await second.disconnect()
            central.close()
        }
    }

    /// The radio loses the device (no Disconnect from anyone) while nothing is acquired for
    /// notifications: Connected=false alone must end the link.
    @Test func radioLossWithoutAcquiredNotifyEndsTheLink() async throws {
        try await BlueZStandInBench.run { bench in
            try await bench.addTestPeripheral(address: BlueZBus.address) { $0.refuseAcquireNotify = .notSupported }
            let central = try await BlueZBus.open(bench)
            let link = try await BlueZBus.connect(central.connector(expecting: [BlueZBus.smpService]))
            try await bench.requireStandIn().dropLink(address: BlueZBus.address)
            let events = try await BlueZBus.eventsUntilDisconnected(link)
            #expect(events.count == 1)
            await expectDisconnected { try await link.writeWithoutResponse([1], to: BlueZBus.smp) }
            central.close()
        }
    }

    @Test func localDisconnectEndsTheLinkOnce() async throws {
        try await BlueZStandInBench.run { bench in
            try await bench.addTestPeripheral(address: BlueZBus.address)
            let central = try await BlueZBus.open(bench)
            let link = try await BlueZBus.connect(central.connector(expecting: [BlueZBus.smpService]))
            await link.disconnect()
            await link.disconnect()
            let events = try await BlueZBus.eventsUntilDisconnected(link)
            #expect(events.map(\.kind) == [.disconnected(.localHostTerminated)])
            await expectDisconnected { try await link.writeWithoutResponse([1], to: BlueZBus.smp) }
            let statistics = try await bench.requireStandIn().statistics(address: BlueZBus.address)
            #expect(statistics.disconnectCalls >= 1)
            #expect(statistics.linkLosses == 0)
            central.close()
        }
    }

    // MARK: Steps

    /// Subscribes to SMP, writes `count` numbered values to the echoing device, and expects them
    /// back as notifications, in order, on this link's generation.
    private func expectDisconnected(_ call: () async throws -> Void,
                                    sourceLocation: SourceLocation = #_sourceLocation) async {
        do {
            try await call()
            Issue.record("the call succeeded on a link that is down", sourceLocation: sourceLocation)
        } catch {
            guard case .disconnected? = error as? LinkError else {
                Issue.record("expected .disconnected, got \(error)", sourceLocation: sourceLocation)
                return
            }
        }
    }
}
