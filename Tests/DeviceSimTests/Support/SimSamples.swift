import DFUCore
import DeviceSim
import Foundation
import Testing

/// The committed images and keys in `firmware-samples/`, located from this file's path.
enum SimSamples {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // Support
        .deletingLastPathComponent()   // DeviceSimTests
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()   // repository root
        .appendingPathComponent("firmware-samples")

    static func path(_ relativePath: String) -> String { root.appendingPathComponent(relativePath).path }

    static func bytes(_ relativePath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent(relativePath)))
    }

    /// `blinky-ecdsa-p256-<version>.signed.bin`, signed with the device's default key.
    static func blinky(_ version: String) throws -> [UInt8] {
        try bytes("images/blinky-ecdsa-p256-\(version).signed.bin")
    }

    static func key(_ name: String) throws -> PublicKey {
        try PublicKey.load(path: path("keys/TEST-ONLY-\(name).pub.pem"))
    }

    /// The SHA256 TLV of an image: the hash the device reports for the slot holding it.
    static func slotHash(_ image: [UInt8]) throws -> [UInt8] {
        try #require(try MCUbootImage(bytes: image).sha256TLV)
    }

    /// The SHA-256 of the whole file: the upload's `sha`.
    static func fileSHA(_ image: [UInt8]) throws -> [UInt8] {
        try SHA256.hash(image)
    }
}
