import DFUCore
import DeviceSim
import Testing
import Transport

/// Drives a `NordicBootloader` with bytes this file writes from the reference (nordic-secure-dfu.md
/// §2, §3.3), not with DFUCore's Nordic client: a client and the simulator must not share a mistake.
struct NordicBench {
    var bootloader: NordicBootloader
    var now = MonotonicInstant(sinceOrigin: .zero)
    /// Every action of the last call.
    var lastActions: [NordicBootloader.Action] = []

    init(_ configuration: NordicBootloaderConfiguration, settings: NordicDFUSettings? = nil) {
        let stored = settings ?? NordicDFUSettings(appVersion: configuration.appVersion,
                                                   bootloaderVersion: configuration.bootloaderVersion)
        bootloader = NordicBootloader(configuration: configuration, settings: stored, now: now)
        _ = bootloader.handle(.connected, now: now)
        _ = bootloader.handle(.subscribed, now: now)
    }

    /// The bootloader the samples were signed for: test key, hw 52, SoftDevice 0x0101 (nRF52832), app version 1.
    /// `softDevice` nil: the chip's (0x0101 on the nRF52832).
    static func configuration(sdk: NordicSDKVersion = .sdk17, chip: NordicChipLayout = .nrf52832,
                              key: String = "TEST-ONLY-nordic-p256", hardware: UInt32 = 52, softDevice: UInt32? = nil,
                              appVersion: UInt32 = 1, drops: Set<Int> = []) throws -> NordicBootloaderConfiguration {
        NordicBootloaderConfiguration(key: try NordicSamples.key(key), sdk: sdk, chip: chip, hardwareVersion: hardware,
                                      softDeviceFWID: softDevice, appVersion: appVersion, droppedPacketWrites: drops)
    }

    mutating func handle(_ event: NordicBootloader.Event) -> [NordicBootloader.Action] {
        lastActions = bootloader.handle(event, now: now)
        return lastActions
    }

    /// The notifications of the last call.
    var notifications: [[UInt8]] {
        lastActions.compactMap { if case .notify(let bytes) = $0 { bytes } else { nil } }
    }

    /// Writes a Control Point request; returns its one notification.
    mutating func cp(_ bytes: [UInt8]) throws -> [UInt8] {
        _ = handle(.controlPointWrite(bytes))
        return try #require(notifications.first)
    }

    mutating func result(_ bytes: [UInt8]) throws -> [UInt8] {
        Array(try cp(bytes).prefix(4))
    }

    /// `06 <type>` → (max size, offset, crc).
    mutating func select(_ type: UInt8) throws -> (max: UInt32, offset: UInt32, crc: UInt32) {
        let answer = try cp([0x06, type])
        try #require(answer.count == 15 && Array(answer.prefix(3)) == [0x60, 0x06, 0x01], "Select answered \(answer)")
        return (le32(answer, 3), le32(answer, 7), le32(answer, 11))
    }

    /// `03` → (offset, crc).
    mutating func checksum() throws -> (offset: UInt32, crc: UInt32) {
        let answer = try cp([0x03])
        try #require(answer.count == 11 && Array(answer.prefix(3)) == [0x60, 0x03, 0x01], "CRC answered \(answer)")
        return (le32(answer, 3), le32(answer, 7))
    }

    mutating func create(_ type: UInt8, size: Int) throws -> [UInt8] {
        try result([0x01, type] + Self.le32(UInt32(size)))
    }

    /// Writes `bytes` to the Packet characteristic in chunks; returns the notifications they caused.
    mutating func send(_ bytes: ArraySlice<UInt8>, chunk: Int = 244) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = min(start + chunk, bytes.endIndex)
            _ = handle(.packetWrite(Array(bytes[start ..< end])))
            out += notifications
            start = end
        }
        return out
    }

    /// The init packet as a fresh transfer sends it: PRN 0, Create, write, Execute; the Execute answer.
    mutating func sendInitPacket(_ dat: [UInt8]) throws -> [UInt8] {
        #expect(try result([0x02, 0x00, 0x00]) == [0x60, 0x02, 0x01])
        #expect(try create(0x01, size: dat.count) == [0x60, 0x01, 0x01])
        _ = send(dat[...])
        #expect(try checksum() == (UInt32(dat.count), CRC32.checksum(dat)))
        return try result([0x04])
    }

    /// The image in 4096-byte objects; the answer to the last Execute.
    mutating func sendFirmware(_ firmware: [UInt8], from start: Int = 0) throws -> [UInt8] {
        var offset = start
        var last: [UInt8] = []
        while offset < firmware.count {
            let end = min(offset + 4096, firmware.count)
            #expect(try create(0x02, size: end - offset) == [0x60, 0x01, 0x01])
            _ = send(firmware[offset ..< end])
            #expect(try checksum() == (UInt32(end), CRC32.checksum(firmware[0 ..< end])))
            last = try result([0x04])
            offset = end
        }
        return last
    }

    /// The reset the last call asked for.
    var resetCause: NordicResetCause? {
        lastActions.lazy.compactMap { if case .reset(let cause) = $0 { cause } else { nil } }.first
    }

    static func le32(_ value: UInt32) -> [UInt8] { (0 ..< 4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    func le32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        (0 ..< 4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * $1) }
    }
}

/// The committed Nordic packages and keys.
enum NordicSamples {
    static func key(_ name: String) throws -> PublicKey {
        try PublicKey.load(path: SimSamples.path("nordic/keys/\(name).pub.pem"))
    }

    static func image(_ package: String) throws -> NordicPackage.Image {
        let package = try NordicPackage(zipBytes: try SimSamples.bytes("nordic/\(package)"))
        return try #require(package.images.last)
    }
}
