import Transport

/// A small device for the stand-in's tests: the SMP-shaped GATT layout (a write-without-response
/// + notify characteristic), Battery Level (read + notify) and a control point (write + notify).
/// It records every write in arrival order, answers each SMP write with one notification when
/// `echo` is on, and can drop its link as a rebooting device does.
public actor BlueZTestPeripheral: MemoryPeripheral {
    public static let smpService = ServiceID(BluetoothUUID(high: 0x8D53_DC1D_1DB7_4CD3, low: 0x868B_8A52_7460_AA84))
    public static let smp = CharacteristicID(BluetoothUUID(high: 0xDA2E_7828_FBCE_4E01, low: 0xAE9E_2611_7499_7C48))
    public static let batteryService = ServiceID(short: 0x180F)
    public static let battery = CharacteristicID(short: 0x2A19)
    public static let controlService = ServiceID(short: 0xFFF0)
    public static let control = CharacteristicID(short: 0xFFF1)

    public static let services = [
        GATTService(smpService, characteristics: [GATTCharacteristic(smp, properties: [.writeWithoutResponse, .notify])]),
        GATTService(batteryService, characteristics: [GATTCharacteristic(battery, properties: [.read, .notify])]),
        GATTService(controlService, characteristics: [GATTCharacteristic(control, properties: [.write, .notify])]),
    ]

    public struct Write: Sendable, Hashable {
        public let value: [UInt8]
        public let characteristic: CharacteristicID
        public let withResponse: Bool
    }

    public private(set) var writes: [Write] = []
    public private(set) var connections = 0
    public private(set) var subscriptions: [CharacteristicID] = []
    public var batteryLevel: UInt8 = 80
    /// Answer every SMP write with a notification of the same bytes.
    public var echo = false
    private var session: MemoryPeripheralSession?
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    public init(echo: Bool = false) {
        self.echo = echo
    }

    public var gattServices: [GATTService] { Self.services }

    public func handleConnect(_ session: MemoryPeripheralSession) {
        self.session = session
        connections += 1
    }

    public func handleWrite(_ value: [UInt8], to characteristic: CharacteristicID, withResponse: Bool) async throws(ATTError) {
        writes.append(Write(value: value, characteristic: characteristic, withResponse: withResponse))
        let ready = waiters.filter { $0.count <= writes.count }
        waiters.removeAll { $0.count <= writes.count }
        for waiter in ready { waiter.continuation.resume() }
        if echo, characteristic == Self.smp, let session {
            try? await session.notify(value, from: Self.smp)
        }
    }

    public func handleRead(_ characteristic: CharacteristicID) throws(ATTError) -> [UInt8] {
        guard characteristic == Self.battery else { throw .readNotPermitted }
        return [batteryLevel]
    }

    public func handleSubscription(_ characteristic: CharacteristicID) {
        subscriptions.append(characteristic)
    }

    public func handleDisconnect(_ reason: DisconnectReason, generation: LinkGeneration) {
        if session?.generation == generation { session = nil }
    }

    /// Sends a notification on the current connection; false when there is none or the central
    /// has not subscribed.
    @discardableResult
    public func notify(_ value: [UInt8], from characteristic: CharacteristicID = BlueZTestPeripheral.smp) async -> Bool {
        guard let session else { return false }
        do throws(LinkError) {
            try await session.notify(value, from: characteristic)
            return true
        } catch {
            return false
        }
    }

    /// The device closes the link itself (a reboot), after what it queued went out.
    public func dropLink() async {
        guard let session else { return }
        await session.flush()
        await session.disconnect()
    }

    /// Waits until at least `count` writes arrived.
    public func waitForWrites(_ count: Int) async {
        guard writes.count < count else { return }
        await withCheckedContinuation { waiters.append((count, $0)) }
    }

    public func setEcho(_ on: Bool) {
        echo = on
    }

    public func setBatteryLevel(_ level: UInt8) {
        batteryLevel = level
    }
}
