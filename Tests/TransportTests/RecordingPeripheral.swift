import Transport

/// GATT identifiers the tests use: SMP's characteristic (write without response + notify), Battery
/// Level (read + notify) and a control point (write with response + notify).
enum TestGATT {
    static let smpService = ServiceID(BluetoothUUID(high: 0x8D53_DC1D_1DB7_4CD3, low: 0x868B_8A52_7460_AA84))
    static let smp = CharacteristicID(BluetoothUUID(high: 0xDA2E_7828_FBCE_4E01, low: 0xAE9E_2611_7499_7C48))
    static let battery = CharacteristicID(short: 0x2A19)
    static let control = CharacteristicID(short: 0xFFF1)
    static let missing = CharacteristicID(short: 0xFFFF)

    static let services = [
        GATTService(smpService, characteristics: [GATTCharacteristic(smp, properties: [.writeWithoutResponse, .notify])]),
        GATTService(ServiceID(short: 0x180F), characteristics: [GATTCharacteristic(battery, properties: [.read, .notify])]),
        GATTService(ServiceID(short: 0xFFF0), characteristics: [GATTCharacteristic(control, properties: [.write, .notify])]),
    ]
}

/// A device that records what reaches it, with the model time of arrival.
actor RecordingPeripheral: MemoryPeripheral {
    struct Write: Sendable {
        let value: [UInt8]
        let characteristic: CharacteristicID
        let at: MonotonicInstant
    }

    let clock: LinkClock
    private(set) var writes: [Write] = []
    private(set) var session: MemoryPeripheralSession?
    private(set) var disconnects: [DisconnectReason] = []
    private(set) var subscriptions: [CharacteristicID] = []
    var refuseWriteRequests: ATTError?
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    private var disconnectWaiters: [CheckedContinuation<Void, Never>] = []

    init(clock: LinkClock) { self.clock = clock }

    var gattServices: [GATTService] { TestGATT.services }

    func handleConnect(_ session: MemoryPeripheralSession) { self.session = session }

    func handleWrite(_ value: [UInt8], to characteristic: CharacteristicID, withResponse: Bool) throws(ATTError) {
        if withResponse, let refusal = refuseWriteRequests { throw refusal }
        writes.append(Write(value: value, characteristic: characteristic, at: clock.now))
        let ready = waiters.filter { $0.count <= writes.count }
        waiters.removeAll { $0.count <= writes.count }
        for waiter in ready { waiter.continuation.resume() }
    }

    func handleRead(_ characteristic: CharacteristicID) throws(ATTError) -> [UInt8] {
        guard characteristic == TestGATT.battery else { throw .readNotPermitted }
        return [80]
    }

    func handleSubscription(_ characteristic: CharacteristicID) { subscriptions.append(characteristic) }

    func handleDisconnect(_ reason: DisconnectReason, generation: LinkGeneration) {
        disconnects.append(reason)
        session = nil
        for waiter in disconnectWaiters { waiter.resume() }
        disconnectWaiters.removeAll()
    }

    func refuseWriteRequests(with error: ATTError?) { refuseWriteRequests = error }

    /// Returns once `count` writes have arrived.
    func waitForWrites(_ count: Int) async {
        if writes.count >= count { return }
        await withCheckedContinuation { waiters.append((count, $0)) }
    }

    /// Returns once the device has seen its connection end.
    func waitForDisconnect() async {
        if !disconnects.isEmpty { return }
        await withCheckedContinuation { disconnectWaiters.append($0) }
    }
}

/// A value of `size` bytes whose first two bytes number it, to check order.
func numbered(_ index: Int, size: Int) -> [UInt8] {
    var value = [UInt8](repeating: 0xA5, count: size)
    value[0] = UInt8(index >> 8)
    value[1] = UInt8(index & 0xFF)
    return value
}

func number(of value: [UInt8]) -> Int { Int(value[0]) << 8 | Int(value[1]) }

let testPeer = PeerIdentity("AA:BB:CC:DD:EE:FF")
