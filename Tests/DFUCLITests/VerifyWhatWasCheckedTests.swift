import Foundation
import Testing

/// `dfu verify` says what it checked. An encrypted image's SHA256 TLV is the hash of the plaintext:
/// dfu cannot check that hash before decryption, but it checks the signature over it, so with the
/// signing key the signature passes (and another key fails); an image signed without a key is
/// "not signed", whether or not --key was left out.
@Suite struct VerifyWhatWasCheckedTests {
    static let encrypted = [("enc-ec256-ecdsa-p256", "ecdsa-p256", "other-ecdsa-p256"),
                            ("enc-x25519-ed25519", "ed25519", "ecdsa-p256"),
                            ("enc-rsa2048-rsa2048", "rsa2048", "rsa3072")]

    static func image(_ name: String) -> String { "firmware-samples/images/blinky-\(name)-1.1.0.signed.bin" }
    static func key(_ name: String) -> String { "firmware-samples/keys/TEST-ONLY-\(name).pub.pem" }

    @Test(arguments: encrypted)
    func encryptedImageWithItsSigningKeySaysTheSignatureOverThePlaintextHashWasChecked(
        sample: String, signingKey: String, otherKey: String) throws {
        let run = try DFURun.run(["verify", Self.image(sample), "--key", Self.key(signingKey)])
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdoutLines.last == "OK: signature verified over the plaintext's hash; the device checks that hash after decrypting")
        #expect(run.stdoutLines.contains { $0.wholeMatch(of: /signature +ok \(over the plaintext's hash\)/) != nil }, "\(run.stdout)")
        #expect(run.stdoutLines.contains { $0.wholeMatch(of: /hash +not checked \(encrypted: the device checks it after decrypting\)/) != nil },
                "\(run.stdout)")
        #expect(run.stdoutLines.contains { $0.wholeMatch(of: /key hash +ok/) != nil }, "\(run.stdout)")

        let json = try VerifyJSONTests.singleObject(try DFURun.run(["verify", Self.image(sample), "--key", Self.key(signingKey), "--json"]))
        #expect(json["signature"] as? String == "passed")
        #expect(json["hash"] as? String == "not-checked")
        #expect(json["key_hash"] as? String == "passed")
        #expect(json["ok"] as? Bool == true)
    }

    @Test(arguments: encrypted)
    func encryptedImageWithAnotherKeyFails(sample: String, signingKey: String, otherKey: String) throws {
        let run = try DFURun.run(["verify", Self.image(sample), "--key", Self.key(otherKey), "--json"])
        #expect(run.exitCode == 3, "\(run.output)")
        let json = try VerifyJSONTests.singleObject(run)
        #expect(json["signature"] as? String == "failed")
        #expect((json["error"] as? String)?.contains("signature") == true)
    }

    @Test func encryptedImageWithoutAKeySaysWhatTheDeviceChecks() throws {
        let run = try DFURun.run(["verify", Self.image("enc-ec256-ecdsa-p256")])
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdoutLines.last == "OK: structure verified; the device checks the hash after decrypting; signature not checked (no --key)")
    }

    @Test func unsignedImageSaysNotSigned() throws {
        let image = "firmware-samples/images/blinky-unsigned-1.1.0.bin"
        let run = try DFURun.run(["verify", image])
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdoutLines.last == "OK: structure and hash verified; not signed")
        #expect(run.stdoutLines.contains { $0.wholeMatch(of: /signature +not signed/) != nil }, "\(run.stdout)")
        #expect(!run.stdout.contains("no --key"), "\(run.stdout)")
        let json = try VerifyJSONTests.singleObject(try DFURun.run(["verify", image, "--json"]))
        #expect(json["signature"] as? String == "not-signed")
        #expect(json["signature_algorithm"] is NSNull)
    }

    /// `dfu flash` of an image signed without a key says so too, not that a key is missing.
    @Test func flashOfAnUnsignedImageSaysNotSigned() throws {
        let run = try FlashCLITests.flash(["--mode", "upload-only"], image: "firmware-samples/images/blinky-unsigned-1.1.0.bin", key: nil)
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdout.contains("image checked: blinky-unsigned-1.1.0.bin 1.1.0+0, 49.7 kB, SHA-256 ok, not signed\n"), "\(run.stdout)")
        #expect(run.stderr.contains("warning: the image is not signed"), "\(run.stderr)")
        #expect(!run.output.contains("no --key"), "\(run.output)")
    }
}
