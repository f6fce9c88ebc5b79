import Foundation
@testable import ReferenceDevices

/// Images for the tests: the imgtool-signed samples in firmware-samples/, and small synthetic
/// MCUboot images (header, body, SHA-256 TLV) for versions the samples lack.
enum Samples {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("firmware-samples")

    static func file(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root.appendingPathComponent(path)))
    }

    static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex, let next = text.index(index, offsetBy: 2, limitedBy: text.endIndex),
              let byte = UInt8(text[index..<next], radix: 16) {
            bytes.append(byte)
            index = next
        }
        return bytes
    }

    /// An MCUboot image: 32-byte header (hdr_size 32), `bodySize` bytes, TLV area with SHA-256.
    static func image(major: UInt8, minor: UInt8, revision: UInt16 = 0, build: UInt32 = 0,
                      bodySize: Int = 3000, seed: UInt8 = 1) -> [UInt8] {
        var header = [UInt8](repeating: 0, count: 32)
        func put32(_ value: UInt32, _ at: Int) { for i in 0..<4 { header[at + i] = UInt8((value >> (8 * UInt32(i))) & 0xFF) } }
        put32(0x96f3_b83d, 0)
        header[8] = 32
        put32(UInt32(bodySize), 12)
        header[20] = major
        header[21] = minor
        header[22] = UInt8(revision & 0xFF)
        header[23] = UInt8(revision >> 8)
        put32(build, 24)
        let body = (0..<bodySize).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &* 7) }
        let hashed = header + body
        let digest = MCUmgrSerial.SHA256.digest(hashed)
        let tlvs: [UInt8] = [0x10, 0x00, 0x20, 0x00] + digest
        let total = tlvs.count + 4
        return hashed + [0x07, 0x69, UInt8(total & 0xFF), UInt8(total >> 8)] + tlvs
    }

    static func hash(of image: [UInt8]) -> [UInt8] {
        Array(image.suffix(32))
    }
}
