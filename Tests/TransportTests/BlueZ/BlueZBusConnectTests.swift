import BlueZStandIn
import BlueZTransport
import Harness
import Testing
import Transport

/// `BlueZConnector` against the stand-in: finding and connecting a device, services by UUID, the
/// MTU, retries, and reconnecting after the device rebooted (same address, or a new one).
@Suite(.enabled(if: standInAvailable, standInSkipReason))
struct BlueZBusConnectTests {
    @Test func connectFindsTheDeviceAndReportsServicesAndMTU() async throws {
        try await BlueZStandInBench.run { bench in
            try await bench.addTestPeripheral(address: BlueZBus.address)
            let central = try await BlueZBus.open(bench)
            let connector = central.connector(expecting: [BlueZBus.smpService])
            let link = try await BlueZBus.connect(connector)
            #expect(link.parameters.generation == LinkGeneration(1))
            #expect(link.parameters.peer == PeerIdentity(BlueZBus.address))
            #expect(link.parameters.attMTU == 498)
            #expect(link.parameters.maxWriteWithoutResponse == 495)
            // EATT may reorder writes: every SMP packet must fit one write. And BlueZ reports drops.
            #expect(link.parameters.writesAreWholeMessages)
            #expect(!link.parameters.isConnectionless)
            #expect(link.parameters.phy == nil)
            #expect(Set(link.services) == Set(BlueZTestPeripheral.services))
            #expect(try await link.read(BlueZTestPeripheral.battery) == [80])
            await link.disconnect()
            #expect(try await bench.requireStandIn().statistics(address: BlueZBus.address).connections == 1)
            central.close()
        }
    }

    /// At MTU 517 a write may carry 514 bytes by ATT, but BlueZ's fd path cuts at 512 and a BlueZ
    /// ≤ 5.68 peer drops over 510 (§8): 510 by default, 512 when told the peer is not such a BlueZ.
    @Test func writesAreCappedAtMTU517() async throws {
        try await BlueZStandInBench.run { bench in
            try await bench.addTestPeripheral(address: BlueZBus.address, profile: try LinkProfile(attMTU: 517))
            let central = try await BlueZBus.open(bench)
            let capped = try await BlueZBus.connect(central.connector(expecting: [BlueZBus.smpService]))
            #expect(capped.parameters.attMTU == 517)
            #expect(capped.parameters.maxWriteWithoutResponse == 510)
            await capped.disconnect()
            let uncapped = try await BlueZBus.connect(central.connector(expecting: [BlueZBus.smpService],
                                                                        capWritesForBlueZPeers: false))
            #expect(uncapped.parameters.maxWriteWithoutResponse == 512)
            await uncapped.disconnect()
            central.close()
        }
    }

    @Test func connectRetriesLeConnectionAbortByLocal() async throws {
        try await BlueZStandInBench.run { bench in
            try await bench.addTestPeripheral(address: BlueZBus.address) { $0.connectFailures = 2 }
            let central = try await BlueZBus.open(bench)
            let link = try await BlueZBus.connect(central.connector(expecting: [BlueZBus.smpService]))
            let statistics = try await bench.requireStandIn().statistics(address: BlueZBus.address)
            #expect(statistics.connectCalls == 3)
            #expect(statistics.connections == 1)
            #expect(link.parameters.attMTU == 498)
            await link.disconnect()
            central.close()
        }
    }

    /// bluetoothd's state for the device is stuck: every Connect fails with abort-by-local until
    /// the object is removed. The second failure removes the unpaired device and finds it again.
    @Test func aStuckUnpairedDeviceIsRemovedAndFoundAgain() async throws {
        try await BlueZStandInBench.run { bench in
            try await bench.addTestPeripheral(address: BlueZBus.address)
            try await bench.requireStandIn().stickConnects(address: BlueZBus.address)
            let central = try await BlueZBus.open(bench)
            let link = try await BlueZBus.connect(central.connector(expecting: [BlueZBus.smpService]))
            let statistics = try await bench.requireStandIn().statistics(address: BlueZBus.address)
            #expect(statistics.removeDeviceCalls == 1)
            #expect(statistics.connectCalls == 3)
            #expect(statistics.connections == 1)
            await link.disconnect()
            central.close()
        }
    }

    /// A paired device is never removed for a stuck Connect (its bond would go): retried until
    /// the deadline, the bond kept.
    @Test func aStuckPairedDeviceKeepsItsBond() async throws {
        try await BlueZStandInBench.run { bench in
            try await bench.addTestPeripheral(address: BlueZBus.address)
            let standIn = try bench.requireStandIn()
            await standIn.setBonded(address: BlueZBus.address)
            await standIn.stickConnects(address: BlueZBus.address)
            let central = try await BlueZBus.open(bench)
            let connector = central.connector(expecting: [BlueZBus.smpService])
            let error = await HangGuardResult.of {
                try await connector.connect(to: PeerIdentity(BlueZBus.address), deadline: .now + .seconds(4))
            }
            #expect(error == .timeout)
            let statistics = await standIn.statistics(address: BlueZBus.address)
            #expect(statistics.removeDeviceCalls == 0)
            #expect(statistics.connectCalls >= 2)
            #expect(await standIn.bond(address: BlueZBus.address) != nil)
            central.close()
        }
    }

    @Test func aDeviceThatNeverAnswersTimesOut() async throws {
        let timing = BlueZStandInTiming(connectAttemptTimeout: .milliseconds(200))
        try await BlueZStandInBench.run(timing: timing) { bench in
            try await bench.addTestPeripheral(address: BlueZBus.address)
            try await bench.requireStandIn().setAdvertising(false, address: BlueZBus.address)
            let central = try await BlueZBus.open(bench)
            let connector = central.connector(expecting: [BlueZBus.smpService])
            let error = await HangGuardResult.of {
                try await connector.connect(to: PeerIdentity(BlueZBus.address), deadline: .now + .seconds(1))
            }
            #expect(error == .timeout)
            central.close()
        }
    }

    /// The device reboots (drops the link itself, comes back at the same address): one
    /// `.disconnected`, then a new link with a higher generation on new GATT paths.
    @Test func reconnectAfterRebootGetsANewGeneration() async throws {
        try await BlueZStandInBench.run { bench in
            let peripheral = try await bench.addTestPeripheral(address: BlueZBus.address)
            let central = try await BlueZBus.open(bench)
            let connector = central.connector(expecting: [BlueZBus.smpService])
            let first = try await BlueZBus.connect(connector)
            try await first.writeWithoutResponse([1], to: BlueZBus.smp)
            try await HangGuard.within("the first write") { await peripheral.waitForWrites(1) }
            await peripheral.dropLink()
            let events = try await BlueZBus.eventsUntilDisconnected(first)
            #expect(events.count == 1)
            #expect(events.allSatisfy { $0.generation == first.parameters.generation })

            let second = try await BlueZBus.connect(connector)
            #expect(second.parameters.generation > first.parameters.generation)
            #expect(connector.latestGeneration == second.parameters.generation)
            try await second.writeWithoutResponse([2], to: BlueZBus.smp)
            try await HangGuard.within("the second write") { await peripheral.waitForWrites(2) }
            #expect(await peripheral.writes.map(\.value) == [[1], [2]])
            #expect(await peripheral.connections == 2)
            await second.disconnect()
            central.close()
        }
    }

    /// The device comes back under another address: the connector finds it by name and the
    /// expected service once the old address has stayed silent for half the deadline (so this
    /// test takes at least 7 s; the other half leaves room for the connector's backoff pauses).
    @Test func reconnectByNameWhenTheAddressChanged() async throws {
        let moved = "C2:11:40:55:7A:99"
        let timing = BlueZStandInTiming(connectAttemptTimeout: .milliseconds(300))
        try await BlueZStandInBench.run(timing: timing) { bench in
            let peripheral = try await bench.addTestPeripheral(address: BlueZBus.address, name: "sensor-12") {
                $0.addressAfterReboot = moved
            }
            try await Self.rebootAndReconnect(peripheral, on: bench, within: .seconds(14)) { second in
                try await second.writeWithoutResponse([7], to: BlueZBus.smp)
                try await HangGuard.within("the write after the move") { await peripheral.waitForWrites(1) }
                #expect(await peripheral.connections == 2)
            }
        }
    }

    /// By name, after a reboot to another address: the old object still looks connected until
    /// bluetoothd's Connected=false arrives (after the fd hang-up); only the new address is dialled
    /// (the old one never answers: the stand-in gives up after 3 s, a real Connect takes at least
    /// the connector's 5 s call timeout).
    @Test func reconnectByNameDialsOnlyTheNewAddress() async throws {
        let moved = "C2:11:40:55:7A:98"
        // Connected=false trails the sockets' hang-up by 100 ms, as bluetoothd's idle callback can.
        let timing = BlueZStandInTiming(linkLossSignalDelay: .milliseconds(100))
        try await BlueZStandInBench.run(timing: timing) { bench in
            let peripheral = try await bench.addTestPeripheral(address: BlueZBus.address, name: "sensor-12") {
                $0.addressAfterReboot = moved
            }
            try await Self.rebootAndReconnect(peripheral, on: bench, peer: "name:sensor-12") { _ in
                let statistics = try await bench.requireStandIn().statistics(address: BlueZBus.address)
                #expect(statistics.connectAddresses == [BlueZBus.address, moved])
            }
        }
    }

    /// By name, after a reboot at the same address: the old object is dialled again once it is
    /// heard advertising (its Name may since be the GAP name, so not by name).
    @Test func reconnectByNameAtTheSameAddress() async throws {
        let timing = BlueZStandInTiming(linkLossSignalDelay: .milliseconds(100))
        try await BlueZStandInBench.run(timing: timing) { bench in
            let peripheral = try await bench.addTestPeripheral(address: BlueZBus.address, name: "sensor-12")
            try await Self.rebootAndReconnect(peripheral, on: bench, peer: "name:sensor-12") { second in
                try await second.writeWithoutResponse([3], to: BlueZBus.smp)
                try await HangGuard.within("the write after the reboot") { await peripheral.waitForWrites(1) }
                let statistics = try await bench.requireStandIn().statistics(address: BlueZBus.address)
                #expect(statistics.connectAddresses == [BlueZBus.address, BlueZBus.address])
            }
        }
    }

    @Test func connectByName() async throws {
        try await BlueZStandInBench.run { bench in
            try await bench.addTestPeripheral(address: "C2:00:00:00:00:07", name: "other")
            let peripheral = try await bench.addTestPeripheral(address: BlueZBus.address, name: "sensor-12")
            let central = try await BlueZBus.open(bench)
            let link = try await BlueZBus.connect(central.connector(expecting: [BlueZBus.smpService]), "name:sensor-12")
            try await link.writeWithoutResponse([9], to: BlueZBus.smp)
            try await HangGuard.within("the write") { await peripheral.waitForWrites(1) }
            await link.disconnect()
            central.close()
        }
    }

    /// The reboot scenarios' common part: connect to `peer`, the device drops the link (its
    /// reboot), connect to `peer` again; the second link must be a new generation. `check` runs on
    /// it before it is disconnected.
    /// Connectors sharing an adapter's gate take turns to connect; a device's connect timeout
    /// starts with its turn. Set-up takes 1 s here: the fourth device's link comes after 4 s at
    /// the earliest, so with 3.5 s counted from the call it would time out.
    @Test func waitingForTheAdaptersTurnIsNotCountedInTheConnectTimeout() async throws {
        try await BlueZStandInBench.run(timing: BlueZStandInTiming(connectLatency: .seconds(1))) { bench in
            let addresses = ["C2:11:40:55:7D:01", "C2:11:40:55:7D:02", "C2:11:40:55:7D:03", "C2:11:40:55:7D:04"]
            for address in addresses { try await bench.addTestPeripheral(address: address) }
            let central = try await BlueZBus.open(bench)
            let gate = BlueZConnectGate()
            var connectors: [BlueZConnector] = []
            for _ in addresses {
                connectors.append(try await central.connector(expecting: [BlueZBus.smpService], pairing: .none, connectGate: gate))
            }
            let failures = await withTaskGroup(of: LinkError?.self) { group in
                for (address, connector) in zip(addresses, connectors) {
                    group.addTask {
                        await HangGuardResult.of { try await BlueZBus.connect(connector, address, within: .milliseconds(3500)) }
                    }
                }
                var failures: [LinkError] = []
                for await failure in group { if let failure { failures.append(failure) } }
                return failures
            }
            #expect(failures.isEmpty, "\(failures)")
            #expect(try await bench.requireStandIn().peakPendingConnects() == 1)
            central.close()
        }
    }

    private static func rebootAndReconnect(_ peripheral: BlueZTestPeripheral, on bench: BlueZStandInBench,
                                           peer: String = BlueZBus.address, within deadline: Duration = .seconds(20),
                                           check: (any Link) async throws -> Void) async throws {
        let central = try await BlueZBus.open(bench)
        let connector = central.connector(expecting: [BlueZBus.smpService])
        let first = try await BlueZBus.connect(connector, peer)
        await peripheral.dropLink()
        _ = try await BlueZBus.eventsUntilDisconnected(first)
        let second = try await BlueZBus.connect(connector, peer, within: deadline)
        #expect(second.parameters.generation > first.parameters.generation)
        try await check(second)
        await second.disconnect()
        central.close()
    }
}

/// The `LinkError` a connect ends with (hang-guarded), nil when it gave a link.
enum HangGuardResult {
    static func of(_ connect: @escaping @Sendable () async throws -> any Link) async -> LinkError? {
        do {
            let link = try await HangGuard.within("connect") { try await connect() }
            await link.disconnect()
            return nil
        } catch let error as LinkError {
            return error
        } catch {
            return .backend("\(error)")
        }
    }
}
