import DFUCore
import ReferenceDevices
import Transport

/// Drives an `SDKDevice` by hand, as a central would, on a time the test moves.
struct Bench {
    var device: SDKDevice
    var now = MonotonicInstant(sinceOrigin: .zero)
    /// Every action the device returned, in order.
    var log: [SDKDeviceAction] = []

    init(_ configuration: SDKDeviceConfiguration) {
        device = SDKDevice(configuration: configuration)
    }

    var config: SDKDeviceConfiguration { device.configuration }

    @discardableResult
    mutating func send(_ event: SDKDeviceEvent) -> [SDKDeviceAction] {
        let actions = device.handle(event, now: now)
        log += actions
        return actions
    }

    /// Moves time on and ticks the device.
    @discardableResult
    mutating func advance(_ duration: Duration) -> [SDKDeviceAction] {
        now = now.advanced(by: duration)
        return send(.tick)
    }

    /// Connects to what the device advertises and enables notifications/indications.
    mutating func connect(subscribing characteristic: CharacteristicID? = nil) {
        guard let advertised = device.advertisement else { return }
        send(.connected(advertised.identity))
        if let characteristic { send(.subscribed(characteristic)) }
    }

    mutating func connectBootloader() { connect(subscribing: SDKGATT.controlPoint) }

    /// After a reset: the link ends and the next image boots.
    mutating func finishReset() {
        send(.disconnected)
        advance(config.bootTime)
    }

    /// A Control Point write; the notification it caused, or the ATT error that refused it.
    mutating func cp(_ bytes: [UInt8]) -> Reply {
        Reply(send(.write(SDKGATT.controlPoint, bytes, withResponse: true)), on: SDKGATT.controlPoint)
    }

    /// A Packet write; the receipt notification, if one was sent.
    mutating func packet(_ bytes: [UInt8]) -> Reply {
        Reply(send(.write(SDKGATT.packet, bytes, withResponse: false)), on: SDKGATT.controlPoint)
    }

    mutating func buttonless(_ bytes: [UInt8]) -> Reply {
        Reply(send(.write(SDKGATT.buttonless, bytes, withResponse: true)), on: SDKGATT.buttonless)
    }
}

/// What one write produced.
struct Reply {
    var actions: [SDKDeviceAction]
    var notification: [UInt8]?
    var refusal: ATTError?

    init(_ actions: [SDKDeviceAction], on characteristic: CharacteristicID) {
        self.actions = actions
        for action in actions {
            if case .notify(let bytes, let from) = action, from == characteristic, notification == nil { notification = bytes }
            if case .refuseWrite(let error) = action { refusal = error }
        }
    }

    var droppedLink: SDKLinkDropCause? {
        for case .dropLink(let cause) in actions { return cause }
        return nil
    }

    /// `offset, crc` of a checksum answer or receipt, `max, offset, crc` of a Select answer.
    var words: [UInt32] {
        guard let bytes = notification, bytes.count > 3 else { return [] }
        return stride(from: 3, to: bytes.count - 3, by: 4).map { index in
            (0 ..< 4).reduce(UInt32(0)) { $0 | UInt32(bytes[index + $1]) << UInt32($1 * 8) }
        }
    }
}

func le32(_ value: UInt32) -> [UInt8] { (0 ..< 4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }

/// The zlib CRC-32, written again for the tests.
func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0 ..< 8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}
