import Testing
import DFUCore

@Suite("Image verification")
struct ImageVerifierTests {
    static let algorithms: [(image: String, key: String, name: String)] = [
        ("blinky-ecdsa-p256-1.1.0.signed.bin", "ecdsa-p256", "ECDSA P-256"),
        ("blinky-ed25519-1.1.0.signed.bin", "ed25519", "Ed25519"),
        ("blinky-rsa2048-1.1.0.signed.bin", "rsa2048", "RSA-2048 PSS"),
        ("blinky-rsa3072-1.1.0.signed.bin", "rsa3072", "RSA-3072 PSS"),
    ]

    @Test(arguments: algorithms)
    func verifiesImageSignedWithEachAlgorithm(sample: (image: String, key: String, name: String)) throws {
        let report = try ImageVerifier.verify(bytes: Samples.image(sample.image), key: Samples.key(sample.key))
        #expect(report.hash == .passed)
        #expect(report.signature == .passed)
        #expect(report.keyHash == .passed)
        #expect(report.signatureAlgorithm == sample.name)
        #expect(report.passed)
        #expect(report.format == "MCUboot")
        #expect(report.version.description == "1.1.0+0")
        #expect(report.sha256.hex == "5c4fd4450dc19689d038b5407d643ab70079f9f2c89cca2a9f3de4ca692a1b82")
    }

    @Test func unsignedImageReportsNotSigned() throws {
        let bytes = try Samples.image("blinky-unsigned-1.1.0.bin")
        let report = try ImageVerifier.verify(bytes: bytes, key: nil)
        #expect(report.hash == .passed)
        #expect(report.signature == .notSigned)
        #expect(report.keyHash == .notChecked(reason: "no key given"))
        #expect(report.signatureAlgorithm == nil)
        #expect(report.passed)
        #expect(report.fileSize == bytes.count)
    }

    @Test func signedImageWithoutKeyPassesOnHashAlone() throws {
        let report = try ImageVerifier.verify(bytes: Samples.image("blinky-rsa2048-1.0.0.signed.bin"), key: nil)
        #expect(report.hash == .passed)
        #expect(report.signature == .notChecked(reason: "no key given"))
        #expect(report.signatureAlgorithm == "RSA-2048 PSS")
        #expect(report.passed)
    }

    @Test func unsignedImageWithKeyReportsSignatureMissing() throws {
        let report = try ImageVerifier.verify(bytes: Samples.image("blinky-unsigned-1.1.0.bin"),
                                              key: Samples.key("ecdsa-p256"))
        #expect(report.signature == .failed(.signatureMissing(keyType: "ECDSA P-256")))
        #expect(report.keyHash == .notChecked(reason: "image has no KEYHASH TLV"))
        #expect(!report.passed)
    }

    @Test func keyOfAnotherTypeReportsSignatureMissing() throws {
        let report = try ImageVerifier.verify(bytes: Samples.image("blinky-ed25519-1.1.0.signed.bin"),
                                              key: Samples.key("ecdsa-p256"))
        #expect(report.signature == .failed(.signatureMissing(keyType: "ECDSA P-256")))
        #expect(report.keyHash == .failed(.keyHashMismatch))
    }

    @Test func tamperedBodyFailsTheHash() throws {
        let report = try ImageVerifier.verify(bytes: Samples.broken("tampered-body.bin"), key: Samples.key("ecdsa-p256"))
        guard case .failed(.hashMismatch(let expected, let computed)) = report.hash else {
            Issue.record("expected a hash mismatch, got \(report.hash)")
            return
        }
        #expect(expected == report.sha256 && computed != expected)
        // The signature still matches the hash TLV, but that must not read as "signature passed".
        #expect(report.signature != .passed)
        #expect(!report.passed)
        #expect(report.firstFailure?.caseName == "hashMismatch")
    }

    @Test func tamperedVersionFailsTheHash() throws {
        let report = try ImageVerifier.verify(bytes: Samples.broken("tampered-version.bin"), key: Samples.key("ecdsa-p256"))
        #expect(report.version.description == "1.2.0+0")
        #expect(report.hash.failed)
        #expect(report.signature != .passed)
        #expect(report.firstFailure?.caseName == "hashMismatch")
    }

    @Test func imageSignedWithOtherKeyFailsSignatureAndKeyHash() throws {
        let report = try ImageVerifier.verify(bytes: Samples.image("blinky-ecdsa-p256-1.1.0.signed.bin"),
                                              key: Samples.key("other-ecdsa-p256"))
        #expect(report.hash == .passed)
        #expect(report.signature == .failed(.signatureInvalid(algorithm: "ECDSA P-256")))
        #expect(report.keyHash == .failed(.keyHashMismatch))
        #expect(report.firstFailure == .signatureInvalid(algorithm: "ECDSA P-256"))
    }

    @Test func tamperedSignatureIsInvalid() throws {
        let report = try ImageVerifier.verify(bytes: Samples.broken("tampered-signature.bin"), key: Samples.key("ecdsa-p256"))
        #expect(report.hash == .passed)
        #expect(report.signature == .failed(.signatureInvalid(algorithm: "ECDSA P-256")))
        #expect(report.keyHash == .passed)
    }

    @Test func keyHashNamingAnotherKeyFails() throws {
        let bytes = try Samples.broken("wrong-keyhash.bin")
        let report = try ImageVerifier.verify(bytes: bytes, key: Samples.key("ecdsa-p256"))
        #expect(report.hash == .passed)
        #expect(report.signature == .passed)
        #expect(report.keyHash == .failed(.keyHashMismatch))
        #expect(!report.passed)
        // Without a key there is nothing to compare the KEYHASH with.
        #expect(try ImageVerifier.verify(bytes: bytes, key: nil).passed)
    }

    @Test func missingSHA256TLVThrows() throws {
        let bytes = try Samples.broken("missing-hash.bin")
        #expect(verifyError(bytes, key: try Samples.key("ecdsa-p256")) == .missingHash)
        #expect(verifyError(bytes, key: nil) == .missingHash)
    }

    @Test func imageHashedOnlyWithSHA512IsUnsupported() throws {
        var builder = ImageBuilder()
        builder.includeSHA256 = false
        builder.extraTLVs = [(0x12, [UInt8](repeating: 0, count: 64))]
        #expect(verifyError(try builder.build(), key: nil)?.caseName == "unsupportedImage")
    }

    @Test func verifiesECDSASignatureZeroPaddedTo72Bytes() throws {
        // imgtool --pad-sig pads DER signatures to 72 bytes for MCUboot < 1.5; both imgtool and MCUboot accept them.
        let original = try MCUbootImage(bytes: Samples.image("blinky-ecdsa-p256-1.1.0.signed.bin"))
        var builder = try ImageBuilder(rebuilding: original)
        builder.extraTLVs = original.unprotectedTLVs.filter { $0.type != .sha256 }.map { tlv in
            let value = tlv.type == .ecdsaSignature
                ? tlv.value + [UInt8](repeating: 0, count: 72 - tlv.value.count) : tlv.value
            return (tlv.type.rawValue, value)
        }
        let padded = try builder.build()
        let sameHashedBytes = padded[original.hashedRegion] == original.bytes[original.hashedRegion]
        let firstDifference = zip(padded, original.bytes).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(sameHashedBytes, "rebuilt image differs first at offset \(String(describing: firstDifference))")
        let report = try ImageVerifier.verify(bytes: padded, key: Samples.key("ecdsa-p256"))
        #expect(report.signature == .passed)
        #expect(try MCUbootImage(bytes: padded).signatureTLVs.first?.value.count == 72)
    }

    @Test func acceptsWhenAnyOfSeveralSignaturesVerifies() throws {
        // imgtool tries each signature TLV of the key's type in turn; a bad one first must not hide a good one.
        let original = try MCUbootImage(bytes: Samples.image("blinky-ecdsa-p256-1.1.0.signed.bin"))
        var builder = try ImageBuilder(rebuilding: original)
        let signature = try #require(original.unprotectedTLV(.ecdsaSignature)).value
        var forged = signature
        forged[forged.count - 1] ^= 0x01
        builder.extraTLVs = [(0x22, forged), (0x22, signature)]
        let report = try ImageVerifier.verify(bytes: builder.build(), key: Samples.key("ecdsa-p256"))
        #expect(report.signature == .passed)
        builder.extraTLVs = [(0x22, forged)]
        let forgedOnly = try ImageVerifier.verify(bytes: builder.build(), key: Samples.key("ecdsa-p256"))
        #expect(forgedOnly.signature == .failed(.signatureInvalid(algorithm: "ECDSA P-256")))
    }

    @Test func checksFullPublicKeyTLVLikeKeyHash() throws {
        // imgtool sign --public-key-format full stores the key itself (PUBKEY) instead of its hash.
        let key = try Samples.key("ed25519")
        var builder = ImageBuilder()
        builder.extraTLVs = [(0x02, key.derBytes)]
        let bytes = try builder.build()
        #expect(try ImageVerifier.verify(bytes: bytes, key: key).keyHash == .passed)
        #expect(try ImageVerifier.verify(bytes: bytes, key: Samples.key("ecdsa-p256")).keyHash == .failed(.keyHashMismatch))
    }

    @Test func encryptedImageLeavesTheHashToTheDevice() throws {
        var builder = ImageBuilder()
        builder.flags = 0x04   // ENCRYPTED_AES128: the SHA256 TLV is of the plaintext
        let report = try ImageVerifier.verify(bytes: builder.build().patched(at: 40, with: [0xEE]), key: nil)
        guard case .notChecked = report.hash else {
            Issue.record("expected the hash to be left unchecked, got \(report.hash)")
            return
        }
    }

    /// The signature of an encrypted image covers the plaintext's hash (its SHA256 TLV): that is
    /// checked, and passes with the signing key only; the hash against the image is the device's.
    @Test func encryptedImageChecksTheSignatureOverThePlaintextHash() throws {
        let bytes = try Samples.image("blinky-enc-ec256-ecdsa-p256-1.1.0.signed.bin")
        let report = try ImageVerifier.verify(bytes: bytes, key: Samples.key("ecdsa-p256"))
        #expect(report.isEncrypted)
        #expect(report.signature == .passed)
        #expect(report.keyHash == .passed)
        #expect(report.passed)
        guard case .notChecked = report.hash else {
            Issue.record("expected the hash to be left unchecked, got \(report.hash)")
            return
        }
        let other = try ImageVerifier.verify(bytes: bytes, key: Samples.key("other-ecdsa-p256"))
        #expect(other.signature == .failed(.signatureInvalid(algorithm: "ECDSA P-256")))
        #expect(!other.passed)
    }

    @Test func builtImageVerifiesWithoutKey() throws {
        var builder = ImageBuilder()
        builder.protectedTLVs = [(0x50, [1, 0, 0, 0])]
        let report = try ImageVerifier.verify(bytes: builder.build(), key: nil)
        #expect(report.hash == .passed)
        #expect(report.version.description == "1.2.3+45")
        #expect(report.headerSize == 32 && report.bodySize == 64)
    }
}

extension ImageBuilder {
    /// A builder that reproduces `image`'s header, body and protected TLVs byte for byte.
    init(rebuilding image: MCUbootImage) throws {
        self.init()
        let header = image.header
        headerSize = header.headerSize
        headerPadding = Array(image.bytes[MCUbootHeader.size ..< header.headerSize])
        version = header.version
        flags = header.flags.rawValue
        body = Array(image.bytes[header.headerSize ..< header.headerSize + header.imageSize])
        protectedTLVs = image.protectedTLVs.map { ($0.type.rawValue, $0.value) }
    }
}
