import DFUCore
import DeviceSim
import Testing

/// What MCUboot does at boot with compressed and encrypted images, driven over SMP: upload, test,
/// reset, read the slots back (sdk-mcuboot `decompression.c`, mcuboot `encrypted.c`).
@Suite struct CompressedAndEncryptedBootTests {
    static let compressible = "images/blinky-compressible-ed25519-1.1.0.signed.bin"

    /// Uploads `image`, marks it for test, resets and reconnects.
    static func install(_ image: [UInt8], on h: inout DeviceHarness) throws {
        #expect(try h.upload(image) == image.count)
        _ = try h.call(ImageStateWriteRequest(hash: try SimSamples.slotHash(image), confirm: false)).get()
        _ = try h.call(OSResetRequest()).get()
        h.runUntilIdle()
        h.connect()
    }

    /// Why the last boot refused the pending image, or nil if it did not.
    static func rejection(_ h: DeviceHarness) -> String? {
        if case .rejected(let reason) = h.device.boots.last?.outcome { return reason }
        return nil
    }

    static func decryptionKey(_ name: String) throws -> ImageDecryptionKey {
        try ImageDecryptionKey.load(path: SimSamples.path("keys/TEST-ONLY-\(name).pem"))
    }

    @Test(arguments: ["lzma2", "lzma2armthumb"])
    func overwriteOnlyMCUbootDecompressesTheImageIntoSlotZero(compression: String) throws {
        var h = try DeviceHarness.make(key: SimSamples.key("ed25519"), swapMode: .overwriteOnly)
        let image = try SimSamples.bytes("images/blinky-\(compression)-ed25519-1.1.0.signed.bin")
        let uncompressed = try SimSamples.bytes(Self.compressible)
        try Self.install(image, on: &h)
        #expect(h.device.boots.map(\.outcome) == [.overwritten(decompressed: true)])
        let state = try h.state()
        let slot0 = try #require(state.slot(0))
        // The installed image is the uncompressed one, byte for byte: its hash is DECOMP_SHA.
        #expect(slot0.hash == (try SimSamples.slotHash(uncompressed)))
        #expect(slot0.hash != (try SimSamples.slotHash(image)))
        #expect(slot0.version == "1.1.0" && slot0.active && slot0.confirmed)
        #expect(Array(h.device.server.bootloader.primary.bytes.prefix(uncompressed.count)) == uncompressed)
        #expect(state.slot(1) == nil, "overwrite-only erases the secondary slot's header")
    }

    @Test func swappingMCUbootRefusesACompressedImage() throws {
        var h = try DeviceHarness.make(key: SimSamples.key("ed25519"))
        try Self.install(try SimSamples.bytes("images/blinky-lzma2-ed25519-1.1.0.signed.bin"), on: &h)
        let reason = try #require(Self.rejection(h), "the last boot did not refuse the image")
        #expect(reason.contains("decompresses only in overwrite-only builds"))
        #expect(try h.state().slot(0)?.version == "1.0.0")
    }

    @Test(arguments: ["compressed-wrong-decomp-sha", "compressed-bad-stream"])
    func overwriteOnlyMCUbootRefusesAnImageThatDoesNotDecompressToDecompSHA(sample: String) throws {
        var h = try DeviceHarness.make(key: SimSamples.key("ed25519"), swapMode: .overwriteOnly)
        let running = try #require(try h.state().slot(0)?.hash)
        try Self.install(try SimSamples.bytes("broken/\(sample).bin"), on: &h)
        let reason = try #require(Self.rejection(h), "the last boot did not refuse the image")
        #expect(reason.contains("decompress"), "\(reason)")
        let state = try h.state()
        #expect(state.slot(0)?.hash == running && state.slot(0)?.version == "1.0.0")
        #expect(state.slot(1) == nil, "the refused image is erased")
    }

    @Test(arguments: [("enc-ec256-ecdsa-p256", "enc-ec256", "ecdsa-p256"), ("enc-x25519-ed25519", "enc-x25519", "ed25519"),
                      ("enc-rsa2048-rsa2048", "enc-rsa2048", "rsa2048")])
    func encryptedImageIsDecryptedWithTheDeviceKeyAndSwappedIn(sample: String, encryptionKey: String, signingKey: String) throws {
        var h = try DeviceHarness.make(key: SimSamples.key(signingKey), decryptionKey: Self.decryptionKey(encryptionKey))
        let image = try SimSamples.bytes("images/blinky-\(sample)-1.1.0.signed.bin")
        try Self.install(image, on: &h)
        #expect(h.device.boots.map(\.outcome) == [.swapped(permanent: false)])
        let slot0 = try #require(try h.state().slot(0))
        #expect(slot0.hash == (try SimSamples.slotHash(image)) && slot0.version == "1.1.0" && slot0.active)
        // Slot 0 holds the plaintext: the body imgtool encrypted.
        let body = try SimSamples.bytes("body/blinky-48k.bin")
        let primary = h.device.server.bootloader.primary.bytes
        #expect(Array(primary[0x200 ..< 0x200 + body.count]) == body)
    }

    @Test func encryptedImageWithoutTheDeviceKeyIsRefusedAtBoot() throws {
        var h = try DeviceHarness.make()
        try Self.install(try SimSamples.bytes("images/blinky-enc-ec256-ecdsa-p256-1.1.0.signed.bin"), on: &h)
        let reason = try #require(Self.rejection(h), "the last boot did not refuse the image")
        #expect(reason.contains("holds no decryption key"))
        #expect(try h.state().slot(0)?.version == "1.0.0")
    }

    /// The signing key is a P-256 private key too: the ECIES tag does not check with it.
    @Test func encryptedImageForAnotherKeyIsRefusedAtBoot() throws {
        var h = try DeviceHarness.make(decryptionKey: Self.decryptionKey("ecdsa-p256"))
        try Self.install(try SimSamples.bytes("images/blinky-enc-ec256-ecdsa-p256-1.1.0.signed.bin"), on: &h)
        let reason = try #require(Self.rejection(h), "the last boot did not refuse the image")
        #expect(reason.contains("encrypted for another key"), "\(reason)")
    }
}
