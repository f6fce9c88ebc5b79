@testable import BlueZTransport
@testable import DBusBinding
import Testing
@testable import Transport

/// The link's bookkeeping without a bus: write limits, and how tree changes end a link or become
/// notifications, stamped with the link's generation and never after its end.
struct BlueZLinkUnitTests {
    static let device = "/org/bluez/hci0/dev_C2_11_40_55_7A_01"
    static let smpPath = device + "/service000a/char000b"
    static let smp = CharacteristicID(BluetoothUUID(string: BlueZObjectFixture.smpCharacteristic) ?? BluetoothUUID(short: 0))

    @Test func writesAreCappedAtMTUMinusThreeAnd510Or512() {
        #expect(BlueZWriteCap.maxWriteWithoutResponse(attMTU: 517, capForBlueZPeers: true) == 510)
        #expect(BlueZWriteCap.maxWriteWithoutResponse(attMTU: 517, capForBlueZPeers: false) == 512)
        #expect(BlueZWriteCap.maxWriteWithoutResponse(attMTU: 515, capForBlueZPeers: false) == 512)
        #expect(BlueZWriteCap.maxWriteWithoutResponse(attMTU: 247, capForBlueZPeers: true) == 244)
        #expect(BlueZWriteCap.maxWriteWithoutResponse(attMTU: 23, capForBlueZPeers: true) == 20)
        // Nonsense from the bus is clamped to the spec's range, never zero or negative.
        #expect(BlueZWriteCap.maxWriteWithoutResponse(attMTU: 0, capForBlueZPeers: true) == 20)
        #expect(BlueZWriteCap.maxWriteWithoutResponse(attMTU: 65_535, capForBlueZPeers: false) == 512)
    }

    private static func makeState(generation: UInt64 = 7) -> (BlueZLinkState, AsyncStream<LinkEvent>) {
        let (events, continuation) = AsyncStream.makeStream(of: LinkEvent.self)
        return (BlueZLinkState(generation: LinkGeneration(generation), devicePath: device, continuation: continuation), events)
    }

    private static func changed(_ path: String, _ interface: String, _ properties: [String: DBusValue]) -> BlueZTreeStore.Event {
        .changed(.properties(path: path, interface: interface, changed: properties, invalidated: []), BlueZObjectTree())
    }

    private static func collect(_ events: AsyncStream<LinkEvent>) async -> [LinkEvent] {
        var all: [LinkEvent] = []
        for await event in events { all.append(event) }
        return all
    }

    @Test func connectedFalseEndsTheLinkOnceAndNothingFollowsIt() async throws {
        let (state, events) = Self.makeState()
        _ = state.setObserver(42)
        state.routeValueSignals(of: Self.smpPath, to: Self.smp)
        _ = state.handle(Self.changed(Self.smpPath, "org.bluez.GattCharacteristic1", ["Value": .bytes([1, 2])]))
        // Another device's disconnection is not ours.
        _ = state.handle(Self.changed("/org/bluez/hci0/dev_AA_00_00_00_00_09", "org.bluez.Device1", ["Connected": .bool(false)]))
        #expect(state.endReason == nil)
        let observer = state.handle(Self.changed(Self.device, "org.bluez.Device1",
                                                 ["ServicesResolved": .bool(false), "Connected": .bool(false)]))
        #expect(observer == 42)
        // Late arrivals: a notification, a second end, a hang-up.
        _ = state.handle(Self.changed(Self.smpPath, "org.bluez.GattCharacteristic1", ["Value": .bytes([3])]))
        #expect(state.handle(.busLost) == nil)
        _ = state.handleSocket(.ended(.hangUp), notifying: Self.smp)
        let all = await Self.collect(events)
        #expect(all.map(\.generation) == [LinkGeneration(7), LinkGeneration(7)])
        #expect(all.first?.kind == .notification(Self.smp, [1, 2]))
        guard case .disconnected(.other(let text))? = all.last?.kind else {
            Issue.record("no disconnection: \(all)")
            return
        }
        #expect(text.contains("Connected=false"))
        #expect(throws: LinkError.disconnected(.other(text))) { try state.checkOpen() }
    }

    @Test func valueSignalsBecomeNotificationsOnlyForRoutedCharacteristics() async {
        let (state, events) = Self.makeState()
        _ = state.handle(Self.changed(Self.smpPath, "org.bluez.GattCharacteristic1", ["Value": .bytes([9])]))
        state.routeValueSignals(of: Self.smpPath, to: Self.smp)
        _ = state.handle(Self.changed(Self.smpPath, "org.bluez.GattCharacteristic1", ["Value": .bytes([1])]))
        _ = state.handle(Self.changed(Self.smpPath, "org.bluez.GattCharacteristic1", ["Value": .int32(5)]))
        _ = state.handle(Self.changed(Self.smpPath, "org.bluez.GattCharacteristic1", ["Notifying": .bool(true)]))
        _ = state.handle(Self.changed(Self.smpPath, "org.bluez.GattCharacteristic1", ["Value": .bytes([])]))
        state.end(.connectionTimeout)
        let all = await Self.collect(events)
        #expect(all.map(\.kind) == [.notification(Self.smp, [1]), .notification(Self.smp, []), .disconnected(.connectionTimeout)])
    }

    @Test func aDisconnectWeAskedForEndsAsLocalHostTerminated() async {
        let (state, events) = Self.makeState(generation: 3)
        #expect(state.beginDisconnect())
        // Operations fail at once while bluetoothd takes the link down.
        #expect(throws: LinkError.disconnected(.localHostTerminated)) { try state.checkOpen() }
        _ = state.handle(Self.changed(Self.device, "org.bluez.Device1", ["Connected": .bool(false)]))
        #expect(!state.beginDisconnect())
        let all = await Self.collect(events)
        #expect(all == [LinkEvent(generation: LinkGeneration(3), kind: .disconnected(.localHostTerminated))])
    }

    @Test func theDeviceVanishingOrBluetoothdLeavingEndsTheLink() async {
        let (removed, removedEvents) = Self.makeState()
        _ = removed.handle(.changed(.removed(path: Self.device + "/service000a", interfaces: ["org.bluez.GattService1"]), BlueZObjectTree()))
        #expect(removed.endReason == nil)
        _ = removed.handle(.changed(.removed(path: Self.device, interfaces: ["org.bluez.Device1"]), BlueZObjectTree()))
        #expect(await Self.collect(removedEvents).count == 1)

        let (left, leftEvents) = Self.makeState()
        _ = left.handle(.bluetoothdLeft)
        #expect(await Self.collect(leftEvents).map(\.kind) == [.disconnected(.other("bluetoothd stopped"))])
    }
}
