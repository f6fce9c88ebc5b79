import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A key file dfu cannot use is refused in dfu's words (exit 3): never Foundation's or the C
/// library's ("NSCocoaErrorDomain error 256", "The file doesn't exist"), and naming what the file
/// holds when it is no key dfu reads. Vectors: `Tests/Vectors/keys` (imgtool 2.5.0).
@Suite struct KeyFileErrorsTests {
    static let image = "firmware-samples/images/blinky-ecdsa-p256-1.1.0.signed.bin"
    static let vectors = "Tests/Vectors/keys"

    static func verify(key: String, image: String = image) throws -> DFURun {
        try DFURun.run(["verify", image, "--key", key])
    }

    @Test func aDirectoryAsTheKeySaysItIsADirectory() throws {
        let run = try Self.verify(key: "firmware-samples/keys")
        #expect(run.exitCode == 3, "\(run.output)")
        #expect(run.stderr == "dfu: error: cannot read key file firmware-samples/keys: it is a directory. Check the path and its permissions.\n")
    }

    @Test func aMissingKeyFileSaysNoSuchFile() throws {
        let run = try Self.verify(key: "firmware-samples/keys/no-such-key.pub.pem")
        #expect(run.exitCode == 3, "\(run.output)")
        #expect(run.stderr == "dfu: error: cannot read key file firmware-samples/keys/no-such-key.pub.pem: no such file. Check the path and its permissions.\n")
    }

    @Test func flashSaysTheSameAsVerify() throws {
        let run = try DFURun.run(["flash", Self.image, "--device", "sim:timescale=0", "--key", "/"], timeout: 30)
        #expect(run.exitCode == 3, "\(run.output)")
        #expect(run.stderr.contains("dfu: error: cannot read key file /: it is a directory."), "\(run.stderr)")
    }

    /// Root reads any file whatever its mode, so this runs only for another user.
    @Test(.enabled(if: getuid() != 0, "root reads a file of mode 000"))
    func anUnreadableKeyFileSaysPermissionDenied() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dfu-key-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = directory.appendingPathComponent("key.pub.pem").path
        try #require(FileManager.default.createFile(atPath: key, contents: Data("x".utf8), attributes: [.posixPermissions: 0]))
        let run = try Self.verify(key: key)
        #expect(run.exitCode == 3)
        #expect(run.stderr.contains("cannot read key file \(key): permission denied."), "\(run.stderr)")
    }

    @Test(arguments: [("ecdsa-p256", 91, "a DER ECDSA P-256 public key"), ("ed25519", 44, "a DER Ed25519 public key"),
                      ("rsa2048", 270, "a DER RSA-2048 public key (PKCS#1)")])
    func imgtoolGetpubDefaultOutputIsNamed(key: String, bytes: Int, what: String) throws {
        let path = "\(Self.vectors)/imgtool-getpub-\(key).c"
        let run = try Self.verify(key: path)
        #expect(run.exitCode == 3, "\(run.output)")
        #expect(run.stderr.hasPrefix("dfu: error: cannot use key \(path): it is a C array of \(bytes) bytes, which is \(what), "
                                     + "not the 64 bytes of a P-256 key; dfu reads a PEM public key (imgtool getpub -k KEY.pem --encoding pem)"),
                "\(run.stderr)")
    }

    @Test func randomBytesAreNamedAsBinaryData() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dfu-key-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Bytes of every value, '{' among them: not text, whatever a C array test would think.
        var generator = SystemRandomNumberGenerator()
        let bytes = (0 ..< 512).map { $0 < 256 ? UInt8($0) : UInt8.random(in: 0 ... 255, using: &generator) }
        let key = directory.appendingPathComponent("random.bin").path
        try #require(FileManager.default.createFile(atPath: key, contents: Data(bytes)))
        let run = try Self.verify(key: key)
        #expect(run.exitCode == 3, "\(run.output)")
        #expect(run.stderr.hasPrefix("dfu: error: cannot use key \(key): it is binary data (512 bytes), not text; dfu reads a PEM public key"),
                "\(run.stderr)")

        // A C array of bytes that are no key: its length named.
        let array = directory.appendingPathComponent("random.c").path
        let text = "const unsigned char key[] = { " + bytes.prefix(40).map { String(format: "0x%02x", $0) }.joined(separator: ", ") + " };\n"
        try #require(FileManager.default.createFile(atPath: array, contents: Data(text.utf8)))
        let arrayRun = try Self.verify(key: array)
        #expect(arrayRun.exitCode == 3, "\(arrayRun.output)")
        #expect(arrayRun.stderr.hasPrefix("dfu: error: cannot use key \(array): it is a C array of 40 bytes, not the 64 bytes of a P-256 key;"),
                "\(arrayRun.stderr)")
    }

    /// imgtool signs with a P-384 key over SHA-384 and cannot be told otherwise: dfu says it does not
    /// support the image, with no advice to re-sign it with SHA-256.
    @Test func aP384ImageIsRefusedPlainly() throws {
        let run = try DFURun.run(["verify", "\(Self.vectors)/imgtool-ecdsa-p384-1.1.0.signed.bin"])
        #expect(run.exitCode == 3, "\(run.output)")
        #expect(run.stderr == "dfu: error: dfu cannot check this MCUboot image: it is signed with ECDSA P-384 over a SHA-384 hash, "
                + "which dfu does not support (dfu takes SHA-256 images, signed with ECDSA P-256, Ed25519, RSA-2048 or RSA-3072).\n")
        let key = try Self.verify(key: "\(Self.vectors)/TEST-ONLY-ecdsa-p384.pub.pem")
        #expect(key.exitCode == 3, "\(key.output)")
        #expect(key.stderr.contains("it is an ECDSA P-384 key, which dfu does not support"), "\(key.stderr)")
        #expect(!key.stderr.contains("Pass a PEM public key"), "\(key.stderr)")
    }
}
