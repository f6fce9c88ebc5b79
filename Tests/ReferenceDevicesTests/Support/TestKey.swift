import DFUCore
import Foundation

/// A throwaway P-256 key made and used through the `openssl` command (DFUCore verifies but does not
/// sign). Signatures come back in the init packet's form: r then s, 32 bytes each, each reversed.
struct TestKey: Sendable {
    let directory: URL
    let publicKey: PublicKey

    static let shared: TestKey = {
        do { return try TestKey() } catch { fatalError("cannot make a test key with openssl: \(error)") }
    }()

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("refdev-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let key = directory.appendingPathComponent("key.pem").path
        let pub = directory.appendingPathComponent("pub.pem").path
        try Self.openssl(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", key])
        try Self.openssl(["ec", "-in", key, "-pubout", "-out", pub])
        publicKey = try PublicKey(pem: Array(try Data(contentsOf: URL(fileURLWithPath: pub))), source: pub)
    }

    /// ECDSA P-256 / SHA-256 over `data`, as 64 init-packet bytes.
    func sign(_ data: [UInt8]) throws -> [UInt8] {
        let input = directory.appendingPathComponent("in-\(UUID().uuidString)")
        let output = directory.appendingPathComponent("sig-\(UUID().uuidString)")
        try Data(data).write(to: input)
        try Self.openssl(["dgst", "-sha256", "-sign", directory.appendingPathComponent("key.pem").path,
                          "-out", output.path, input.path])
        let der = Array(try Data(contentsOf: output))
        guard let (r, s) = Self.parseDER(der) else { throw TestKeyError.badSignature }
        return Array(r.reversed()) + Array(s.reversed())
    }

    /// SEQUENCE { INTEGER r, INTEGER s } to two 32-byte big-endian numbers.
    static func parseDER(_ der: [UInt8]) -> ([UInt8], [UInt8])? {
        guard der.count > 8, der[0] == 0x30 else { return nil }
        var index = 2
        func integer() -> [UInt8]? {
            guard index + 2 <= der.count, der[index] == 0x02 else { return nil }
            let length = Int(der[index + 1])
            guard index + 2 + length <= der.count else { return nil }
            let value = Array(der[(index + 2) ..< (index + 2 + length)].drop { $0 == 0 })
            index += 2 + length
            guard value.count <= 32 else { return nil }
            return [UInt8](repeating: 0, count: 32 - value.count) + value
        }
        guard let r = integer(), let s = integer() else { return nil }
        return (r, s)
    }

    static func openssl(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestKeyError.opensslFailed(arguments.first ?? "") }
    }
}

enum TestKeyError: Error {
    case opensslFailed(String)
    case badSignature
}
