import Testing
import DFUCore

@Suite("MCUboot image parser")
struct MCUbootImageTests {
    @Test func readsHeaderFieldsOfSignedSample() throws {
        let bytes = try Samples.image("blinky-ecdsa-p256-1.2.3+45.signed.bin")
        let image = try MCUbootImage(bytes: bytes)
        #expect(image.version == ImageVersion(major: 1, minor: 2, revision: 3, build: 45))
        #expect(image.version.description == "1.2.3+45")
        #expect(image.header.headerSize == 0x200)
        #expect(image.header.imageSize == 48 * 1024)
        #expect(image.header.protectedTLVSize == 0)
        #expect(image.protectedTLVs.isEmpty)
        #expect(image.unprotectedTLVs.map(\.type) == [.sha256, .keyHash, .ecdsaSignature])
        #expect(image.hashedRegion == 0 ..< 0x200 + 48 * 1024)
        #expect(image.imageLength == bytes.count)
        #expect(image.sha256TLV?.hex == "7721386041c70548366af3e54945a0b5c52b95d02c4293df8d703d855bc011b0")
    }

    @Test func parsesVersionWithBuildNumberFromBuiltImage() throws {
        var builder = ImageBuilder()
        builder.version = ImageVersion(major: 1, minor: 2, revision: 3, build: 45)
        let image = try MCUbootImage(bytes: try builder.build())
        #expect(image.version.description == "1.2.3+45")
        #expect(image.header.version.build == 45)
    }

    @Test func readsProtectedTLVsAndHashesThem() throws {
        let image = try MCUbootImage(bytes: Samples.image("blinky-ecdsa-p256-protected-tlv-1.1.0.signed.bin"))
        #expect(image.header.protectedTLVSize == 4 + 8 + 8)
        #expect(image.protectedTLVs.map(\.type) == [.securityCounter, .unknown(0xA0)])
        #expect(image.protectedTLVs.first?.value == [7, 0, 0, 0])
        #expect(image.protectedTLVs.last?.value == [0x12, 0x34, 0x56, 0x78])
        // The protected area is hashed; the unprotected one is not.
        #expect(image.hashedRegion.upperBound == image.unprotectedArea.offset)
        #expect(image.hashedRegion.upperBound == 0x200 + 48 * 1024 + 20)
    }

    @Test func keepsUnknownTLVTypesAsRawValues() {
        #expect(TLVType(rawValue: 0x22) == .ecdsaSignature)
        #expect(TLVType(rawValue: 0x75) == .classUUID)
        #expect(TLVType(rawValue: 0x12A0) == .unknown(0x12A0))
        for raw in UInt16(0) ... 0x100 { #expect(TLVType(rawValue: raw).rawValue == raw) }
    }

    @Test func acceptsTrailerPaddingAfterTheTLVs() throws {
        var builder = ImageBuilder()
        builder.trailer = [UInt8](repeating: 0xFF, count: 100)
        let bytes = try builder.build()
        let image = try MCUbootImage(bytes: bytes)
        #expect(image.imageLength == bytes.count - 100)
    }

    @Test func rejectsBadMagic() throws {
        #expect(parseError(try Samples.broken("bad-magic.bin"))
                == .badMagic(found: 0x464C_457F))
    }

    @Test func reportsLegacyAndBigEndianHeadersAsUnsupported() throws {
        var legacy = ImageBuilder()
        legacy.magic = 0x96F3_B83C
        #expect(parseError(try legacy.build())?.caseName == "unsupportedImage")
        let bigEndian = try ImageBuilder().build().patched(at: 0, with: [0x96, 0xF3, 0xB8, 0x3D])
        #expect(parseError(bigEndian)?.caseName == "unsupportedImage")
    }

    @Test func rejectsTruncatedHeader() throws {
        #expect(parseError(try Samples.broken("truncated-header.bin"))
                == .truncated(what: "image header", offset: 0, needed: 32, available: 20))
        #expect(parseError([])?.caseName == "truncated")
    }

    @Test func rejectsFileCutInsideTheTLVArea() throws {
        let error = parseError(try Samples.broken("truncated-tlv.bin"))
        guard case .truncated(let what, _, _, _)? = error else {
            Issue.record("expected truncated, got \(String(describing: error))")
            return
        }
        #expect(what == "unprotected TLV area")
    }

    @Test func rejectsImageSizeThatRunsPastTheFile() throws {
        let error = parseError(try Samples.broken("lying-img-size.bin"))
        guard case .truncated(let what, let offset, let needed, let available)? = error else {
            Issue.record("expected truncated, got \(String(describing: error))")
            return
        }
        #expect(what == "image body (ih_img_size)")
        #expect(offset == 0x200 && needed == 49816 && available == 49816 - 0x200)
    }

    @Test func rejectsHeaderSizeThatRunsPastTheFile() throws {
        #expect(parseError(try Samples.broken("lying-hdr-size.bin"))
                == .truncated(what: "padded image header (ih_hdr_size)", offset: 0, needed: 0xFFFF, available: 49816))
    }

    @Test func rejectsHeaderSizeSmallerThanTheHeader() throws {
        var builder = ImageBuilder()
        builder.headerSize = 16
        let bytes = try builder.build()
        #expect(parseError(bytes)?.caseName == "invalidField")
    }

    @Test func rejectsTLVTotalThatRunsPastTheFile() throws {
        let error = parseError(try Samples.broken("lying-tlv-total.bin"))
        guard case .truncated(let what, _, _, _)? = error else {
            Issue.record("expected truncated, got \(String(describing: error))")
            return
        }
        #expect(what == "unprotected TLV area")
    }

    @Test func rejectsBadTLVInfoMagic() throws {
        let bytes = try Samples.broken("bad-tlv-magic.bin")
        #expect(parseError(bytes)
                == .badTLVInfoMagic(expected: 0x6907, found: 0x6906, offset: 0x200 + 48 * 1024))
    }

    @Test func rejectsTLVWhoseLengthRunsPastItsArea() throws {
        var builder = ImageBuilder()
        builder.extraTLVs = [(0x01, [UInt8](repeating: 0xAB, count: 32))]
        builder.unprotectedTotalField = 4 + 36 + 20   // ends inside the KEYHASH value
        builder.trailer = [UInt8](repeating: 0, count: 64)
        let error = parseError(try builder.build())
        guard case .invalidField(let field, let value, _)? = error else {
            Issue.record("expected invalidField, got \(String(describing: error))")
            return
        }
        #expect(field.hasPrefix("length of KEYHASH"))
        #expect(value == 32)
    }

    @Test func rejectsTLVAreaTotalSmallerThanItsInfo() throws {
        var builder = ImageBuilder()
        builder.unprotectedTotalField = 2
        #expect(parseError(try builder.build())?.caseName == "invalidField")
    }

    @Test func rejectsProtectedSizeThatDisagreesWithTheArea() throws {
        var builder = ImageBuilder()
        builder.protectedTLVs = [(0x50, [7, 0, 0, 0])]
        builder.protectedSizeField = 16   // the area says 12
        let error = parseError(try builder.build())
        #expect(error == .invalidField(field: "protected TLV area total", value: 12,
                                       reason: "differs from ih_protect_tlv_size 16"))
    }

    @Test func rejectsProtectedAreaTheHeaderDoesNotDeclare() throws {
        var builder = ImageBuilder()
        builder.protectedTLVs = [(0x50, [7, 0, 0, 0])]
        builder.protectedSizeField = 0
        #expect(parseError(try builder.build())?.caseName == "invalidField")
    }

    @Test func rejectsMissingProtectedAreaTheHeaderDeclares() throws {
        var builder = ImageBuilder()
        builder.protectedSizeField = 12
        #expect(parseError(try builder.build())
                == .badTLVInfoMagic(expected: 0x6908, found: 0x6907, offset: 32 + 64))
    }

    @Test func descriptionsNameNoImageBytes() throws {
        let bytes = try Samples.image("blinky-ecdsa-p256-1.1.0.signed.bin")
        let image = try MCUbootImage(bytes: bytes)
        #expect(image.description.count < 200)
        #expect("\(image)" == image.description && String(reflecting: image) == image.description)
        for tlv in image.unprotectedTLVs {
            #expect(!tlv.description.contains(tlv.value.hex))
            #expect(tlv.description.count < 80)
        }
    }
}
