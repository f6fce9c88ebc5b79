import Testing
@testable import DFUCore

/// Compressed MCUboot images (imgtool `--compression`), checked as sdk-mcuboot checks them before it
/// installs one: the file as sent, then the image it decompresses to against DECOMP_SHA.
@Suite("Compressed images")
struct CompressedImageTests {
    static let uncompressed = "blinky-compressible-ed25519-1.1.0.signed.bin"
    static let compressions: [(file: String, method: ImageCompression.Method)] = [
        ("blinky-lzma2-ed25519-1.1.0.signed.bin", .lzma2),
        ("blinky-lzma2armthumb-ed25519-1.1.0.signed.bin", .lzma2ARMThumb),
    ]

    @Test(arguments: compressions)
    func compressedImageReportsItsCompressionAndDecompSHA(sample: (file: String, method: ImageCompression.Method)) throws {
        let report = try ImageVerifier.verify(bytes: Samples.image(sample.file), key: Samples.key("ed25519"))
        let twin = try ImageVerifier.verify(bytes: Samples.image(Self.uncompressed), key: nil)
        let compression = try #require(report.compression)
        #expect(compression.method == sample.method)
        #expect(compression.decompressedSize == 49152)
        #expect(compression.decompressedSHA256 == twin.sha256)
        #expect(compression.decompressedHash == .passed)
        #expect(compression.decompressedSignature == .passed)
        #expect(report.hash == .passed && report.signature == .passed && report.keyHash == .passed)
        #expect(report.sha256 != twin.sha256, "the file's own SHA256 TLV covers the compressed body")
        #expect(report.installedHash == twin.sha256)
        #expect(report.passed)
    }

    @Test func uncompressedImageHasNoCompressionAndInstallsUnderItsSHA256TLV() throws {
        let report = try ImageVerifier.verify(bytes: Samples.image(Self.uncompressed), key: nil)
        #expect(report.compression == nil)
        #expect(report.installedHash == report.sha256)
    }

    /// Ed25519 signatures are deterministic, so the image MCUboot writes to slot 0 must equal the
    /// image imgtool signs from the same body without compression.
    @Test(arguments: compressions)
    func installedImageIsTheUncompressedImageByteForByte(sample: (file: String, method: ImageCompression.Method)) throws {
        let image = try MCUbootImage(bytes: Samples.image(sample.file))
        let compression = try #require(try ImageCompression(image: image))
        let installed = try InstalledImage.decompressing(image, compression).get()
        #expect(installed == (try Samples.image(Self.uncompressed)))
    }

    @Test func decompSHAThatDoesNotMatchTheDecompressedImageFailsWithTheFileIntact() throws {
        let report = try ImageVerifier.verify(bytes: Samples.broken("compressed-wrong-decomp-sha.bin"), key: Samples.key("ed25519"))
        #expect(report.hash == .passed && report.signature == .passed)
        guard case .failed(.decompressedHashMismatch(let expected, let computed)) = report.compression?.decompressedHash else {
            Issue.record("decompressed hash: \(String(describing: report.compression?.decompressedHash))")
            return
        }
        #expect(expected != computed)
        #expect(computed == (try ImageVerifier.verify(bytes: Samples.image(Self.uncompressed), key: nil)).sha256)
        #expect(report.firstFailure?.caseName == "decompressedHashMismatch")
    }

    @Test func damagedLZMA2StreamFailsToDecompress() throws {
        let report = try ImageVerifier.verify(bytes: Samples.broken("compressed-bad-stream.bin"), key: nil)
        #expect(report.hash == .passed)
        #expect(report.compression?.decompressedHash.failed == true)
        #expect(report.firstFailure?.caseName == "decompressionFailed")
    }

    @Test func tamperedCompressedBodyFailsTheFileHash() throws {
        var bytes = try Samples.image("blinky-lzma2-ed25519-1.1.0.signed.bin")
        bytes[0x200 + 1000] ^= 0x01
        let report = try ImageVerifier.verify(bytes: bytes, key: Samples.key("ed25519"))
        #expect(report.firstFailure?.caseName == "hashMismatch")
        #expect(!report.passed)
    }

    @Test func compressedImageWithoutDecompSignatureIsRefusedAsMCUbootDoes() throws {
        // Retype DECOMP_SIGNATURE to a vendor TLV: the image then lacks it (the file hash breaks too,
        // but the decompressed-signature check stands on its own).
        var bytes = try Samples.image("blinky-lzma2-ed25519-1.1.0.signed.bin")
        let tlv = try #require(try MCUbootImage(bytes: bytes).protectedTLVs.first { $0.type == .decompressedSignature })
        bytes[tlv.valueOffset - 4] = 0xA0
        let report = try ImageVerifier.verify(bytes: bytes, key: nil)
        #expect(report.compression?.decompressedSignature == .failed(.decompressedSignatureMissing))
    }

    /// DECOMP_SIZE is the installed body's size: a stream that yields more, or less, is refused.
    @Test(arguments: [(49151, "tooLong"), (49153, "sizeMismatch")])
    func decompSizeThatLiesIsRefused(size: Int, failure: String) throws {
        var bytes = try Samples.image("blinky-lzma2-ed25519-1.1.0.signed.bin")
        let tlv = try #require(try MCUbootImage(bytes: bytes).protectedTLVs.first { $0.type == .decompressedSize })
        for index in 0 ..< 4 { bytes[tlv.valueOffset + index] = UInt8(truncatingIfNeeded: size >> (8 * index)) }
        let image = try MCUbootImage(bytes: bytes)
        let compression = try #require(try ImageCompression(image: image))
        #expect(compression.decompressedSize == size)
        switch InstalledImage.decompressing(image, compression) {
        case .success: Issue.record("decompressed with DECOMP_SIZE \(size)")
        case .failure(.tooLong): #expect(failure == "tooLong")
        case .failure(.sizeMismatch(let expected, let produced)):
            #expect(failure == "sizeMismatch" && expected == size && produced == 49152)
        case .failure(let other): Issue.record("unexpected \(other)")
        }
    }

    @Test func compressionFlagWithoutItsTLVsIsAMalformedCompressedImage() throws {
        var bytes = try Samples.image(Self.uncompressed)
        bytes[17] |= 0x04 // IMAGE_F_COMPRESSED_LZMA2 (0x400), in ih_flags at offset 16
        #expect(verifyError(bytes)?.caseName == "invalidCompression")
        bytes[17] = 0x02 // LZMA1 only: not something imgtool writes or dfu decompresses
        #expect(verifyError(bytes)?.caseName == "unsupportedImage")
    }

    /// Bytes changed anywhere in the compressed stream end in a report, never a trap.
    @Test func damageAnywhereInTheStreamEndsInAReport() throws {
        let original = try Samples.image("blinky-lzma2armthumb-ed25519-1.1.0.signed.bin")
        let image = try MCUbootImage(bytes: original)
        var random = SplitMix64(seed: 10)
        for _ in 0 ..< 200 {
            var bytes = original
            let offset = 0x200 + Int(random.next() % UInt64(image.header.imageSize))
            bytes[offset] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            let report = try ImageVerifier.verify(bytes: bytes, key: nil)
            #expect(report.hash.failed)
        }
    }

    @Test func lzma2PropertiesDecodeAsCompressionFormatMdTabulatesThem() throws {
        #expect(LZMA2Properties([0x00, 102])?.dictionarySize == 4096)
        #expect(LZMA2Properties([0x0A, 102])?.dictionarySize == 131_072)
        #expect(LZMA2Properties([0x27, 102])?.dictionarySize == 3_221_225_472)
        let defaults = try #require(LZMA2Properties([0x0A, (2 * 5 + 1) * 9 + 3]))
        #expect(defaults.positionBits == 2 && defaults.literalPositionBits == 1 && defaults.literalContextBits == 3)
        #expect(LZMA2Properties([40, 102]) == nil)
        #expect(LZMA2Properties([0x0A, 225]) == nil)
        #expect(LZMA2Properties([0x0A]) == nil)
    }
}
