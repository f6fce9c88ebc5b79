import BlueZStandIn
import DFUCore
import Foundation
import Testing

/// Init packets the tests build field by field from dfu-cc.proto (nordic-secure-dfu.md §4) and sign
/// with the committed test-only private key through the `openssl` command, for the rules the
/// nrfutil samples cannot reach (odd sizes, wrong types, missing fields, system parts).
public struct NordicTestInitPacket: Sendable {
    public var fwVersion: UInt32? = 3
    public var hwVersion: UInt32? = 52
    public var sdReq: [UInt32] = [0x0101]
    /// FwType: 0 application, 1 SoftDevice, 2 bootloader, 3 SoftDevice + bootloader.
    public var type: UInt64? = 0
    public var sdSize: UInt32?
    public var blSize: UInt32?
    public var appSize: UInt32?
    public var hashType: UInt64 = 3
    public var firmware: [UInt8]
    public var signatureType: UInt64 = 0

    /// An application's init packet for `firmware`.
    public init(firmware: [UInt8]) {
        self.firmware = firmware
        appSize = UInt32(firmware.count)
    }

    /// A SoftDevice + bootloader part (`sd_bl.bin` is the SoftDevice, then the bootloader) with
    /// the bootloader's version, as nrfutil fills it (§4.1).
    public static func softDeviceBootloader(softDevice: [UInt8], bootloader: [UInt8], version: UInt32) -> NordicTestInitPacket {
        var packet = NordicTestInitPacket(firmware: softDevice + bootloader)
        packet.type = 3
        packet.fwVersion = version
        packet.appSize = nil
        packet.sdSize = UInt32(softDevice.count)
        packet.blSize = UInt32(bootloader.count)
        return packet
    }

    /// The serialized InitCommand, fields in field-number order as nanopb and nrfutil write them.
    public func initCommand() throws -> [UInt8] {
        var out: [UInt8] = []
        if let fwVersion { out += Self.varint(field: 1, UInt64(fwVersion)) }
        if let hwVersion { out += Self.varint(field: 2, UInt64(hwVersion)) }
        if !sdReq.isEmpty { out += Self.bytes(field: 3, sdReq.flatMap { Self.varint(UInt64($0)) }) }
        if let type { out += Self.varint(field: 4, type) }
        if let sdSize { out += Self.varint(field: 5, UInt64(sdSize)) }
        if let blSize { out += Self.varint(field: 6, UInt64(blSize)) }
        if let appSize { out += Self.varint(field: 7, UInt64(appSize)) }
        let digest = try SHA256.hash(firmware)
        out += Self.bytes(field: 8, Self.varint(field: 1, hashType) + Self.bytes(field: 2, Array(digest.reversed())))
        out += Self.varint(field: 9, 0)
        return out
    }

    /// `Packet { signed_command { command { op_code INIT, init }, signature_type, signature } }`.
    public func signed() throws -> [UInt8] {
        let initBytes = try initCommand()
        let command = Self.varint(field: 1, 1) + Self.bytes(field: 2, initBytes)
        let signature = try Self.sign(initBytes)
        let signedCommand = Self.bytes(field: 1, command) + Self.varint(field: 2, signatureType) + Self.bytes(field: 3, signature)
        return Self.bytes(field: 2, signedCommand)
    }

    public static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var out: [UInt8] = []
        repeat {
            let low = UInt8(value & 0x7F)
            value >>= 7
            out.append(value == 0 ? low : low | 0x80)
        } while value != 0
        return out
    }

    public static func varint(field: UInt64, _ value: UInt64) -> [UInt8] { varint(field << 3) + varint(value) }
    public static func bytes(field: UInt64, _ value: [UInt8]) -> [UInt8] { varint(field << 3 | 2) + varint(UInt64(value.count)) + value }

    /// ECDSA P-256/SHA-256 by `openssl dgst`, DER turned into r‖s, each 32 bytes byte-reversed.
    public static func sign(_ message: [UInt8]) throws -> [UInt8] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nordic-sign-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("init.bin")
        try Data(message).write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["dgst", "-sha256", "-sign", NordicTestSamples.path("nordic/keys/TEST-ONLY-nordic-p256.pem"), input.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let der = [UInt8](output.fileHandleForReading.readDataToEndOfFile())
        let status = ChildExit.wait(process, timeout: 30)
        try #require(status == ChildExit.Status(code: 0, exited: true) && der.count > 8 && der[0] == 0x30)
        var index = 2
        var parts: [[UInt8]] = []
        for _ in 0 ..< 2 {
            try #require(index + 2 <= der.count && der[index] == 0x02)
            let length = Int(der[index + 1])
            try #require(index + 2 + length <= der.count)
            let integer = Array(der[index + 2 ..< index + 2 + length].drop { $0 == 0 })
            try #require(integer.count <= 32)
            parts.append(Array((Array(repeating: 0, count: 32 - integer.count) + integer).reversed()))
            index += 2 + length
        }
        return parts[0] + parts[1]
    }
}
