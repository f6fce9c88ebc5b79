import Foundation
import Testing

/// `dfu flash` with compressed and encrypted images, as a user runs it against the virtual device:
/// a compressed image is confirmed by its DECOMP_SHA on an overwrite-only MCUboot, an encrypted one
/// by its SHA256 TLV on a device that holds the decryption key; without what the image needs, the
/// device boots its old image and dfu exits 8 saying what to check.
@Suite(.serialized, .endToEnd) struct FlashCompressedEncryptedCLITests {
    static let keys = "firmware-samples/keys"
    static let lzma2 = "firmware-samples/images/blinky-lzma2-ed25519-1.1.0.signed.bin"
    /// DECOMP_SHA of the compressed samples: the SHA256 TLV of the same body signed uncompressed.
    static let decompSHA = "e6bc9005defc0a6288644bdb63d75282e83fa70cad3f1b178b3fb45c37627728"

    static func flash(_ image: String, sim: String, key: String) throws -> DFURun {
        try DFURun.run(["flash", image, "--device", "sim:timescale=0,key=\(keys)/TEST-ONLY-\(key).pub.pem" + sim,
                        "--key", "\(keys)/TEST-ONLY-\(key).pub.pem"], timeout: 30)
    }

    @Test(arguments: ["lzma2", "lzma2armthumb"])
    func compressedImageIsConfirmedOnAnOverwriteOnlyDevice(compression: String) throws {
        let run = try Self.flash("firmware-samples/images/blinky-\(compression)-ed25519-1.1.0.signed.bin",
                                 sim: ",swap=overwrite", key: "ed25519")
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdout.contains("device reports 1.1.0+0, active"))
        #expect(run.stdoutLines.last?.hasPrefix("OK: 1.1.0+0 is running and confirmed on") == true, "\(run.stdout)")
        #expect(run.stderr.contains("overwrite only mode, which cannot roll back"))
    }

    @Test func compressedImageOnASwappingDeviceRollsBackAndExitsEight() throws {
        let run = try Self.flash(Self.lzma2, sim: "", key: "ed25519")
        #expect(run.exitCode == 8, "\(run.output)")
        #expect(run.stderr.contains("came back running 1.0.0+0: it rolled back or refused the image"))
        #expect(run.stderr.contains("that its MCUboot decompresses (an overwrite-only build with decompression)"))
    }

    /// One device served over UDP across three dfu runs: after the install, `dfu info` shows slot 0
    /// holding the decompressed image, whose hash is the DECOMP_SHA `dfu verify` printed.
    @Test func infoShowsDecompSHAAsSlotZeroHashAfterTheInstall() throws {
        let verify = try DFURun.run(["verify", Self.lzma2])
        #expect(verify.stdoutLines.contains("DECOMP_SHA              \(Self.decompSHA)"), "\(verify.stdout)")
        let sim = try LiveDFUProcess(sim: ["--serve", "udp:127.0.0.1:0", "--swap", "overwrite", "--slot-size", "64K",
                                        "--key", "\(Self.keys)/TEST-ONLY-ed25519.pub.pem"])
        let ready = try #require(sim.ready(), "no ready line; stdout so far: \(sim.lines)")
        let device = "udp:127.0.0.1:\(ready.port)"
        let flash = try DFURun.run(["flash", Self.lzma2, "--device", device], timeout: 60)
        let info = try DFURun.run(["info", "--device", device], timeout: 30)
        let ended = sim.stop()
        #expect(flash.exitCode == 0, "\(flash.output)")
        #expect(info.exitCode == 0, "\(info.output)")
        #expect(info.stdoutLines.contains { $0.hasPrefix("bootloader mode") && $0.hasSuffix("overwrite only") }, "\(info.stdout)")
        #expect(info.stdoutLines.contains("slot 0 hash        \(Self.decompSHA)"), "\(info.stdout)")
        #expect(info.stdoutLines.contains("slot 1             empty"), "\(info.stdout)")
        #expect(ended.stdoutLines.contains { $0.contains("MCUboot decompressed the new image into slot 0") }, "\(ended.stdoutLines)")
    }

    @Test(arguments: [("enc-ec256-ecdsa-p256", "enc-ec256", "ecdsa-p256"), ("enc-x25519-ed25519", "enc-x25519", "ed25519"),
                      ("enc-rsa2048-rsa2048", "enc-rsa2048", "rsa2048")])
    func encryptedImageIsConfirmedOnADeviceWithTheDecryptionKey(sample: String, encryptionKey: String, signingKey: String) throws {
        let run = try Self.flash("firmware-samples/images/blinky-\(sample)-1.1.0.signed.bin",
                                 sim: ",enc_key=\(Self.keys)/TEST-ONLY-\(encryptionKey).pem", key: signingKey)
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.stdoutLines.last?.hasPrefix("OK: 1.1.0+0 is running and confirmed on") == true, "\(run.stdout)")
        // The hash covers the plaintext: the signature over it is checked, the hash is left to the device.
        #expect(run.stdout.contains("signature ok over the plaintext's hash (the device checks that hash)\n"), "\(run.stdout)")
        #expect(!run.stderr.contains("signature was not checked"), "\(run.stderr)")
    }

    @Test func encryptedImageOnADeviceWithoutTheKeyRollsBackAndExitsEight() throws {
        let run = try Self.flash("firmware-samples/images/blinky-enc-ec256-ecdsa-p256-1.1.0.signed.bin", sim: "", key: "ecdsa-p256")
        #expect(run.exitCode == 8, "\(run.output)")
        #expect(run.stderr.contains("came back running 1.0.0+0: it rolled back or refused the image"))
        #expect(run.stderr.contains("and encrypted for the key it decrypts with."))
    }

    @Test func unusableDecryptionKeyIsAUsageError() throws {
        let run = try DFURun.run(["flash", Self.lzma2, "--device", "sim:enc_key=\(Self.keys)/TEST-ONLY-enc-ec256.pub.pem"], timeout: 30)
        #expect(run.exitCode == 2, "\(run.output)")
        #expect(run.stderr.contains("enc_key='\(Self.keys)/TEST-ONLY-enc-ec256.pub.pem' cannot be used"), "\(run.stderr)")
    }
}
