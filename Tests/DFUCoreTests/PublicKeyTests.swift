import Foundation
import Testing
import DFUCore

@Suite("Public keys")
struct PublicKeyTests {
    static let keys: [(name: String, algorithm: SignatureAlgorithm, image: String)] = [
        ("ecdsa-p256", .ecdsaP256, "blinky-ecdsa-p256-1.0.0.signed.bin"),
        ("ed25519", .ed25519, "blinky-ed25519-1.0.0.signed.bin"),
        ("rsa2048", .rsa2048PSS, "blinky-rsa2048-1.0.0.signed.bin"),
        ("rsa3072", .rsa3072PSS, "blinky-rsa3072-1.0.0.signed.bin"),
    ]

    /// imgtool wrote SHA-256 of its `get_public_bytes` into KEYHASH; ours must be the same bytes.
    @Test(arguments: keys)
    func keyHashMatchesWhatImgtoolStored(sample: (name: String, algorithm: SignatureAlgorithm, image: String)) throws {
        let key = try Samples.key(sample.name)
        #expect(key.algorithm == sample.algorithm)
        let image = try MCUbootImage(bytes: Samples.image(sample.image))
        #expect(image.unprotectedTLV(.keyHash)?.value == key.keyHash)
        #expect(try SHA256.hash(key.derBytes) == key.keyHash)
    }

    @Test func rsaKeyBytesArePKCS1NotSubjectPublicKeyInfo() throws {
        let key = try Samples.key("rsa2048")
        // PKCS#1 RSAPublicKey starts SEQUENCE { INTEGER n …; SubjectPublicKeyInfo would start with the algorithm.
        #expect(Array(key.derBytes.prefix(5)) == [0x30, 0x82, 0x01, 0x0A, 0x02])
    }

    @Test func loadsRSAPublicKeyInPKCS1PEM() throws {
        let spkiKey = try Samples.key("rsa3072")
        let pem = "-----BEGIN RSA PUBLIC KEY-----\n"
            + Data(spkiKey.derBytes).base64EncodedString(options: .lineLength64Characters)
            + "\n-----END RSA PUBLIC KEY-----\n"
        let pkcs1Key = try PublicKey(pem: Array(pem.utf8))
        #expect(pkcs1Key == spkiKey)
        let report = try ImageVerifier.verify(bytes: Samples.image("blinky-rsa3072-1.1.0.signed.bin"), key: pkcs1Key)
        #expect(report.passed && report.signature == .passed)
    }

    @Test func refusesPrivateKeyFile() throws {
        let path = Samples.url("keys/TEST-ONLY-ecdsa-p256.pem").path
        let error = thrownError { try PublicKey.load(path: path) }
        guard case .keyUnusable(let reportedPath, let reason)? = error else {
            Issue.record("expected keyUnusable, got \(String(describing: error))")
            return
        }
        #expect(reportedPath == path)
        #expect(reason.contains("private key"))
    }

    @Test func refusesMissingFileAndNonKeys() throws {
        #expect(thrownError { try PublicKey.load(path: "/nonexistent/dfu-test-key.pem") }
                == .keyUnreadable(path: "/nonexistent/dfu-test-key.pem", reason: "no such file"))
        #expect(thrownError { try PublicKey.load(path: Samples.url("keys").path) }
                == .keyUnreadable(path: Samples.url("keys").path, reason: "it is a directory"))
        #expect(thrownError { try PublicKey.load(path: Samples.url("README.md").path) }?.caseName == "keyUnusable")
        #expect(thrownError { try PublicKey.load(path: Samples.url("images/blinky-unsigned-1.1.0.bin").path) }?.caseName == "keyUnusable")
        let garbled = "-----BEGIN PUBLIC KEY-----\nAAAAAAAA\n-----END PUBLIC KEY-----\n"
        #expect(thrownError { try PublicKey(pem: Array(garbled.utf8)) }?.caseName == "keyUnusable")
        #expect(thrownError { try PublicKey(pem: []) }?.caseName == "keyUnusable")
    }

    @Test(arguments: [Self.p384PEM, Self.rsa1024PEM, Self.x25519PEM])
    func refusesKeysMCUbootDoesNotSignWith(pem: String) {
        let error = thrownError { try PublicKey(pem: Array(pem.utf8)) }
        guard case .keyUnusable(_, let reason)? = error else {
            Issue.record("expected keyUnusable, got \(String(describing: error))")
            return
        }
        // Refused for its type, not because it failed to decode.
        #expect(!reason.contains("does not decode"))
    }

    @Test func descriptionShowsNoKeyMaterial() throws {
        for sample in Self.keys {
            let key = try Samples.key(sample.name)
            #expect(!key.description.contains(key.derBytes.hex))
            #expect(key.description.hasPrefix(sample.algorithm.rawValue))
        }
    }

    // Throw-away public keys made with `openssl genpkey` for these tests only.
    static let p384PEM = """
        -----BEGIN PUBLIC KEY-----
        MHYwEAYHKoZIzj0CAQYFK4EEACIDYgAEryoSHqStfZsPlRz70BIoVjczsgR319uy
        sB9zar71PAq6QMWwcmB2GViFe5jw9oOKIjdbImcZQViaB8BMAnqPmvQszopsryVU
        p3Fuv2hasizHni+6LjhopYygZI8jgkUv
        -----END PUBLIC KEY-----
        """
    static let rsa1024PEM = """
        -----BEGIN PUBLIC KEY-----
        MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDhFo963/iuxvkXPNrSJbR9CLny
        rjVh0TqWyPmfLYo4uy3HsGEFzfkIKRr2wORQDtCgoP0pFTDZKIXtG7OlKBfhll1J
        /OytXDltU/qpdZfN2mxArVwEw3mNAWWSs7Uh5wAtHoedY7DJXIuRn/TB4JMqruaG
        o+GkyUvB+tGAspEPcQIDAQAB
        -----END PUBLIC KEY-----
        """
    static let x25519PEM = """
        -----BEGIN PUBLIC KEY-----
        MCowBQYDK2VuAyEAFlafEyYgfyyn+VmnczcX5OgbcuDXABiSstdSk1lrkEE=
        -----END PUBLIC KEY-----
        """
}
