@testable import ReferenceDevices
import Testing

@Suite struct MCUmgrSerialImageFormatTests {
    typealias Serial = MCUmgrSerial

    @Test func sha256MatchesTheStandardVectorAndImgtool() throws {
        #expect(Serial.SHA256.digest(Array("abc".utf8)) == Samples.hex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
        let image = try Samples.file("images/blinky-ecdsa-p256-1.1.0.signed.bin")
        let validated = try #require(Serial.bootValidate(image + [UInt8](repeating: 0xFF, count: 4096)))
        #expect(validated.hash == Samples.hex("5c4fd4450dc19689d038b5407d643ab70079f9f2c89cca2a9f3de4ca692a1b82"))
        #expect(validated.header.version == MCUbootImageVersion(major: 1, minor: 1, revision: 0))
        #expect(validated.totalSize == image.count)
    }

    @Test func protectedTLVsAreHashedAndTamperedImagesRefused() throws {
        let slack = [UInt8](repeating: 0xFF, count: 4096)
        let protected = try Samples.file("images/blinky-ecdsa-p256-protected-tlv-1.1.0.signed.bin")
        #expect(Serial.bootValidate(protected + slack) != nil)
        for broken in ["tampered-body", "tampered-version", "bad-magic", "bad-tlv-magic", "missing-hash", "lying-hdr-size"] {
            let bytes = try Samples.file("broken/\(broken).bin")
            #expect(Serial.bootValidate(bytes + slack) == nil, "\(broken)")
        }
        // Signatures are not checked: a wrongly signed image passes the model.
        #expect(Serial.bootValidate(try Samples.file("broken/signed-with-other-key.bin") + slack) != nil)
    }

    @Test func zephyrReadInfoFindsVersionAndHashOfTheSample() throws {
        let image = try Samples.file("images/blinky-ecdsa-p256-1.2.3+45.signed.bin")
        let slot = image + [UInt8](repeating: 0xFF, count: 4096)
        let info = try Serial.zephyrReadInfo(slot, wantHash: true).get()
        #expect(info.version.description == "1.2.3.45")
        #expect(info.hash == Serial.bootValidate(slot)?.hash)
        #expect(Serial.zephyrReadInfo([UInt8](repeating: 0xFF, count: 64), wantHash: true) == .failure(.noImage))
    }
}
