import DFUCore
import ReferenceDevices

/// One application update as pc-nrfutil would package it: an image and its signed init packet.
struct Update {
    var image: [UInt8]
    var initPacket: [UInt8]
    var fields: InitCommandFields

    /// An image of `size` bytes (a multiple of 4, as nrfutil pads) and a packet for `version`.
    static func application(size: Int = 10_000, version: UInt64 = 2, key: TestKey = .shared,
                            edit: (inout InitCommandFields) -> Void = { _ in }) throws -> Update {
        let image = (0 ..< size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        var fields = InitCommandFields()
        fields.fwVersion = version
        fields.appSize = UInt64(size)
        fields.hash = Array(try SHA256.hash(image).reversed())
        edit(&fields)
        let command = fields.encoded()
        return Update(image: image, initPacket: InitPacket.signed(command, signature: try key.sign(command)), fields: fields)
    }

    static func config(_ edit: (inout SDKDeviceConfiguration) -> Void = { _ in }) -> SDKDeviceConfiguration {
        var configuration = SDKDeviceConfiguration(publicKey: TestKey.shared.publicKey)
        configuration.bootTime = .milliseconds(100)
        edit(&configuration)
        return configuration
    }
}

extension Bench {
    /// From the application into the bootloader through buttonless `01`.
    mutating func enterBootloader() {
        connect(subscribing: SDKGATT.buttonless)
        _ = buttonless([0x01])
        finishReset()
    }

    /// Sends the init packet: Select, PRN 0, Create, Packet writes, CRC, Execute. Returns the
    /// Execute answer.
    mutating func sendInitPacket(_ packet: [UInt8], chunk: Int = 244) -> [UInt8]? {
        _ = cp([0x06, 0x01])
        _ = cp([0x02, 0x00, 0x00])
        _ = cp([0x01, 0x01] + le32(UInt32(packet.count)))
        for start in stride(from: 0, to: packet.count, by: chunk) {
            _ = self.packet(Array(packet[start ..< min(packet.count, start + chunk)]))
        }
        _ = cp([0x03])
        return cp([0x04]).notification
    }

    /// Sends `image` from `offset` (a multiple of the object size) in objects of 4096 bytes; returns
    /// the last answer (the final Execute's, or the first failure's).
    mutating func sendImage(_ image: [UInt8], from offset: Int = 0, prn: UInt16 = 0, chunk: Int = 244) -> [UInt8]? {
        _ = cp([0x02] + Array(le32(UInt32(prn)).prefix(2)))
        var last: [UInt8]?
        for start in stride(from: offset, to: image.count, by: 4096) {
            let object = Array(image[start ..< min(image.count, start + 4096)])
            last = cp([0x01, 0x02] + le32(UInt32(object.count))).notification
            guard last == [0x60, 0x01, 0x01] else { return last }
            for index in stride(from: 0, to: object.count, by: chunk) {
                _ = packet(Array(object[index ..< min(object.count, index + chunk)]))
            }
            _ = cp([0x03])
            last = cp([0x04]).notification
            guard last == [0x60, 0x04, 0x01] else { return last }
        }
        return last
    }
}
