import DFUCore
import Foundation

/// A package from `firmware-samples/nordic/` (made by pc-nrfutil 6.1.7), read with `unzip`, and the
/// test-only key that signed it.
struct NordicPackage {
    var initPacket: [UInt8]
    var firmware: [UInt8]

    static let samples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("firmware-samples/nordic")

    /// `name` (e.g. "app-signed-3.zip"): the first image its manifest names.
    init(_ name: String) throws {
        let zip = Self.samples.appendingPathComponent(name).path
        let manifest = try JSONSerialization.jsonObject(with: Data(try Self.unzip(zip, "manifest.json")))
        guard let root = (manifest as? [String: Any])?["manifest"] as? [String: Any],
              let image = root.values.compactMap({ $0 as? [String: Any] }).first,
              let bin = image["bin_file"] as? String, let dat = image["dat_file"] as? String else {
            throw NordicPackageError.manifest(name)
        }
        initPacket = try Self.unzip(zip, dat)
        firmware = try Self.unzip(zip, bin)
    }

    /// `TEST-ONLY-nordic-p256` (or `other`), the key the bootloader is built with.
    static func key(_ name: String = "TEST-ONLY-nordic-p256") throws -> PublicKey {
        let path = samples.appendingPathComponent("keys/\(name).pub.pem").path
        return try PublicKey(pem: Array(try Data(contentsOf: URL(fileURLWithPath: path))), source: path)
    }

    static func unzip(_ zip: String, _ member: String) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
        process.arguments = ["-p", zip, member]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw NordicPackageError.unzip(zip, member) }
        return Array(data)
    }
}

enum NordicPackageError: Error {
    case manifest(String)
    case unzip(String, String)
}
