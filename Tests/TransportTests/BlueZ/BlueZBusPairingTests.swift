import BlueZStandIn
import BlueZTransport
import Testing
import Transport

/// The central's pairing against the stand-in's model of BlueZ 5.66 (bluez-dbus.md §9): a device
/// whose SMP characteristic needs an authenticated link is paired under dfu's agent when a passkey
/// is given, refused with the reason when not, used as it is when bonded; and AcquireNotify never
/// meets an insecure link (it would take bluetoothd 5.66 down).
@Suite(.enabled(if: standInAvailable, standInSkipReason))
struct BlueZBusPairingTests {
    static let passkey = Passkey(123_456)!

    private func secureDevice(_ bench: BlueZStandInBench, security: BlueZStandInSecurity = .authenticate) async throws {
        try await bench.addTestPeripheral(address: BlueZBus.address, echo: true) {
            $0.security = security
            $0.passkey = Self.passkey.value
        }
    }

    private func connector(_ central: BlueZCentral, _ pairing: BlueZPairing) async throws -> BlueZConnector {
        try await central.connector(expecting: [BlueZBus.smpService], pairing: pairing)
    }

    /// The error `connect` ends with, nil when it connected.
    private func connectError(_ connector: BlueZConnector) async throws -> LinkError? {
        do throws(LinkError) {
            let link = try await connector.connect(to: PeerIdentity(BlueZBus.address), deadline: .now + .seconds(15))
            await link.disconnect()
            return nil
        } catch {
            return error
        }
    }

    @Test func aDeviceThatRequiresAuthenticationIsPairedWithThePasskeyAndThenAnswers() async throws {
        try await BlueZStandInBench.run { bench in
            try await secureDevice(bench)
            let central = try await BlueZBus.open(bench)
            let connector = try await connector(central, BlueZPairing(input: .passkey(Self.passkey)))
            let link = try await BlueZBus.connect(connector)
            let security = try #require(link.parameters.security)
            #expect(security.paired && security.bonded && security.pairedNow)
            #expect(security.authenticated == true)
            try await BlueZBus.echoes(link, count: 5)
            let standIn = try bench.requireStandIn()
            let statistics = await standIn.statistics(address: BlueZBus.address)
            #expect(statistics.agentCalls == ["RequestPasskey"])
            #expect(statistics.acquireNotifyWhileInsecure == 0)
            #expect(statistics.insecureWritesDropped == 0)
            #expect(await standIn.bond(address: BlueZBus.address) == .authenticated)
            await link.disconnect()
            await connector.releaseAgent()
            central.close()
        }
    }

    /// As on the rig, another program's agent is the default one (there: the peripheral's). Given
    /// the passkey, dfu pairs with Device1.Pair (its own agent) before any GATT request, so BlueZ
    /// never starts a pairing of its own through that default agent.
    @Test func whenAnotherAgentIsTheDefaultDfuPairsWithItsOwn() async throws {
        try await BlueZStandInBench.run { bench in
            try await secureDevice(bench)
            let other = try await bench.client()
            let foreign = try await StandInTestAgent.register(on: other, capability: "KeyboardOnly", answer: .reject,
                                                              makeDefault: true)
            let central = try await BlueZBus.open(bench)
            let connector = try await connector(central, BlueZPairing(input: .passkey(Self.passkey)))
            let link = try await BlueZBus.connect(connector)
            #expect(link.parameters.security?.pairedNow == true)
            #expect(link.parameters.security?.authenticated == true)
            try await BlueZBus.echoes(link, count: 3)
            let statistics = try await bench.requireStandIn().statistics(address: BlueZBus.address)
            #expect(statistics.pairCalls == 1)
            #expect(await foreign.calls.isEmpty, "the default agent was never asked")
            #expect(statistics.acquireNotifyWhileInsecure == 0)
            await link.disconnect()
            await connector.releaseAgent()
            central.close()
            other.close()
        }
    }

    @Test func withoutAPasskeyTheConnectEndsSayingPairingIsRequired() async throws {
        try await BlueZStandInBench.run { bench in
            try await secureDevice(bench)
            let central = try await BlueZBus.open(bench)
            let error = try await connectError(try await connector(central, .none))
            guard case .security(.pairingRequired)? = error else {
                Issue.record("expected pairingRequired, got \(String(describing: error))")
                return
            }
            let statistics = try await bench.requireStandIn().statistics(address: BlueZBus.address)
            #expect(statistics.pairCalls == 0)
            #expect(statistics.acquireNotifyWhileInsecure == 0)
            #expect(try await bench.requireStandIn().bond(address: BlueZBus.address) == nil)
            central.close()
        }
    }

    @Test func aWrongPasskeyEndsWithBlueZsReason() async throws {
        try await BlueZStandInBench.run { bench in
            try await secureDevice(bench)
            let central = try await BlueZBus.open(bench)
            let error = try await connectError(try await connector(central, BlueZPairing(input: .passkey(Passkey(111_111)!))))
            guard case .security(.pairingFailed(let reason, _))? = error else {
                Issue.record("expected pairingFailed, got \(String(describing: error))")
                return
            }
            #expect(reason.contains("AuthenticationFailed"))
            #expect(!reason.contains("111111") && !reason.contains("123456"))
            #expect(try await bench.requireStandIn().bond(address: BlueZBus.address) == nil)
            central.close()
        }
    }

    @Test func aBondedDeviceNeedsNoAgent() async throws {
        try await BlueZStandInBench.run { bench in
            try await secureDevice(bench)
            let standIn = try bench.requireStandIn()
            await standIn.setBonded(address: BlueZBus.address, authenticated: true)
            let central = try await BlueZBus.open(bench)
            let link = try await BlueZBus.connect(try await connector(central, .none))
            try await BlueZBus.echoes(link, count: 5)
            let statistics = await standIn.statistics(address: BlueZBus.address)
            #expect(statistics.pairCalls == 0)
            #expect(statistics.agentCalls.isEmpty)
            #expect(statistics.acquireNotifyCalls == 0)
            #expect(statistics.signalNotifications == 5)
            #expect(link.parameters.security?.pairedNow == false)
            #expect(link.parameters.security?.bonded == true)
            await link.disconnect()
            central.close()
        }
    }

    @Test func aJustWorksBondOnADeviceThatRequiresAuthenticationIsRefused() async throws {
        try await BlueZStandInBench.run { bench in
            try await secureDevice(bench)
            try await bench.requireStandIn().setBonded(address: BlueZBus.address, authenticated: false)
            let central = try await BlueZBus.open(bench)
            let error = try await connectError(try await connector(central, BlueZPairing(input: .passkey(Self.passkey))))
            guard case .security(.stillRefusedAfterPairing)? = error else {
                Issue.record("expected stillRefusedAfterPairing, got \(String(describing: error))")
                return
            }
            central.close()
        }
    }

    @Test func pairFirstBondsADeviceThatDidNotAsk() async throws {
        try await BlueZStandInBench.run { bench in
            try await secureDevice(bench, security: .open)
            let central = try await BlueZBus.open(bench)
            let link = try await BlueZBus.connect(try await connector(central, BlueZPairing(input: .passkey(Self.passkey), pairFirst: true)))
            #expect(link.parameters.security?.pairedNow == true)
            let statistics = try await bench.requireStandIn().statistics(address: BlueZBus.address)
            #expect(statistics.pairCalls == 1)
            await link.disconnect()
            central.close()
        }
    }

    @Test func withoutAPasskeyAnOpenDeviceIsUsedWithoutPairing() async throws {
        try await BlueZStandInBench.run { bench in
            try await secureDevice(bench, security: .open)
            let central = try await BlueZBus.open(bench)
            let link = try await BlueZBus.connect(try await connector(central, .none))
            try await BlueZBus.echoes(link, count: 3)
            #expect(link.parameters.security?.paired == false)
            #expect(link.parameters.security?.pairedNow == false)
            let statistics = try await bench.requireStandIn().statistics(address: BlueZBus.address)
            #expect(statistics.pairCalls == 0)
            #expect(statistics.agentCalls.isEmpty)
            await link.disconnect()
            central.close()
        }
    }

    /// After a reboot (the link drops) the next connect is encrypted by the bond: no second pairing.
    @Test func aReconnectAfterTheLinkDropsReusesTheBond() async throws {
        try await BlueZStandInBench.run { bench in
            try await secureDevice(bench)
            let standIn = try bench.requireStandIn()
            let central = try await BlueZBus.open(bench)
            let connector = try await connector(central, BlueZPairing(input: .passkey(Self.passkey)))
            let first = try await BlueZBus.connect(connector)
            await standIn.dropLink(address: BlueZBus.address)
            _ = try await BlueZBus.eventsUntilDisconnected(first)
            let second = try await BlueZBus.connect(connector)
            try await BlueZBus.echoes(second, count: 3)
            let statistics = await standIn.statistics(address: BlueZBus.address)
            #expect(statistics.agentCalls == ["RequestPasskey"], "paired once")
            #expect(second.parameters.security?.pairedNow == false)
            await second.disconnect()
            await connector.releaseAgent()
            central.close()
        }
    }
}
