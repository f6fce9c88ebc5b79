import Testing
import DFUCore

/// Encrypted images (imgtool `-E`) decrypted with the device's key as MCUboot does: the plaintext
/// must be the body imgtool encrypted, and must then verify like any image.
@Suite("Image decryption")
struct ImageDecryptionTests {
    static let samples: [(image: String, encryptionKey: String, signingKey: String)] = [
        ("blinky-enc-ec256-ecdsa-p256-1.1.0.signed.bin", "enc-ec256", "ecdsa-p256"),
        ("blinky-enc-x25519-ed25519-1.1.0.signed.bin", "enc-x25519", "ed25519"),
        ("blinky-enc-rsa2048-rsa2048-1.1.0.signed.bin", "enc-rsa2048", "rsa2048"),
    ]

    static func decryptionKey(_ name: String) throws -> ImageDecryptionKey {
        try ImageDecryptionKey.load(path: Samples.url("keys/TEST-ONLY-\(name).pem").path)
    }

    @Test(arguments: samples)
    func decryptsEachSampleToTheBodyImgtoolEncrypted(sample: (image: String, encryptionKey: String, signingKey: String)) throws {
        let bytes = try Samples.image(sample.image)
        let image = try MCUbootImage(bytes: bytes)
        let plain = try ImageDecryption.decrypt(image, with: Self.decryptionKey(sample.encryptionKey)).get()
        let body = try Samples.bytes("body/blinky-48k.bin")
        #expect(Array(plain[0x200 ..< 0x200 + body.count]) == body)
        #expect(plain[..<0x200] == bytes[..<0x200] && plain[(0x200 + body.count)...] == bytes[(0x200 + body.count)...])
        let report = try ImageVerifier.verify(bytes: plain, key: Samples.key(sample.signingKey), decrypted: true)
        #expect(report.hash == .passed && report.signature == .passed && report.keyHash == .passed)
        // Without decrypting, the hash is left to the device.
        #expect(try ImageVerifier.verify(bytes: bytes, key: nil).hash != .passed)
    }

    @Test func keyOfAnotherKindFindsNoKeyTLV() throws {
        let image = try MCUbootImage(bytes: Samples.image("blinky-enc-ec256-ecdsa-p256-1.1.0.signed.bin"))
        let result = ImageDecryption.decrypt(image, with: try Self.decryptionKey("enc-x25519"))
        #expect(result == .failure(.noKeyTLV(expected: "ENC_X25519 (0x0033) or ENC_X25519_SHA512 (0x0034)")))
    }

    /// The signing keys are P-256 and RSA-2048 private keys too, but not the ones imgtool encrypted for.
    @Test(arguments: [("blinky-enc-ec256-ecdsa-p256-1.1.0.signed.bin", "ecdsa-p256", "ENC_EC256 (0x0032)"),
                      ("blinky-enc-rsa2048-rsa2048-1.1.0.signed.bin", "rsa2048", "ENC_RSA2048 (0x0030)")])
    func keyOfTheSameKindThatIsNotTheImagesDoesNotUnwrap(image: String, key: String, tlv: String) throws {
        let parsed = try MCUbootImage(bytes: Samples.image(image))
        #expect(ImageDecryption.decrypt(parsed, with: try Self.decryptionKey(key)) == .failure(.wrongKey(type: tlv)))
    }

    @Test func damagedECIESTagIsRefused() throws {
        var bytes = try Samples.image("blinky-enc-x25519-ed25519-1.1.0.signed.bin")
        let tlv = try #require(try MCUbootImage(bytes: bytes).unprotectedTLV(.encryptedX25519))
        bytes[tlv.valueOffset + 32] ^= 0x01 // first byte of the HMAC tag, after the 32-byte ephemeral key
        let result = ImageDecryption.decrypt(try MCUbootImage(bytes: bytes), with: try Self.decryptionKey("enc-x25519"))
        #expect(result == .failure(.wrongKey(type: "ENC_X25519 (0x0033)")))
    }

    @Test(arguments: ["keys/TEST-ONLY-enc-ec256.pub.pem", "keys/TEST-ONLY-ed25519.pem", "keys/README.md"])
    func onlyPrivateP256X25519OrRSA2048KeysDecrypt(path: String) throws {
        #expect(thrownError { try ImageDecryptionKey.load(path: Samples.url(path).path) }?.caseName == "keyUnusable")
    }

    @Test func decryptionKeyNamesOnlyItsKind() throws {
        #expect("\(try Self.decryptionKey("enc-x25519"))" == "ECIES-X25519 image decryption key")
    }
}
