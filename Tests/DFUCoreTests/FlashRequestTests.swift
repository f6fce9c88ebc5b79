@testable import DFUCore
import Foundation
import Testing

/// The request every front end builds and the journal stores: stored as typed fields (never a dry
/// run), made into the engine's options field by field.
@Suite struct FlashRequestTests {
    static func everything() -> FlashRequest {
        var request = FlashRequest(imagePath: "/images/app.bin", device: "C2:11:40:55:7A:01")
        request.adapter = "hci1"
        request.keyPath = "/keys/pub.pem"
        request.allowUnsigned = true
        request.expectVersion = "1.1.0"
        request.packetReceiptInterval = 12
        request.bootloaderName = "Dfu04711"
        request.mode = .testConfirm
        request.imageIndex = 1
        request.minimumBattery = 45
        request.requireNewer = true
        request.allowHostOnBattery = true
        request.pair = true
        request.timeouts = .init(connect: 2.5, firstChunk: 60)
        return request
    }

    @Test func itIsStoredAsTypedFieldsAndReadBackTheSame() throws {
        var request = Self.everything()
        request.dryRun = true
        let data = try JSONEncoder().encode(request)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["image", "device", "adapter", "key", "allow_unsigned", "expect_version", "prn",
                                     "bootloader_name", "mode", "image_index", "min_battery", "allow_downgrade",
                                     "require_newer", "allow_host_battery", "pair", "timeouts"], "no dry_run")
        #expect(object["prn"] as? Int == 12 && object["mode"] as? String == "test-confirm")
        #expect((object["timeouts"] as? [String: Double]) == ["connect": 2.5, "first_chunk": 60])
        var read = try JSONDecoder().decode(FlashRequest.self, from: data)
        #expect(!read.dryRun, "a dry run keeps no journal, so a stored request never is one")
        read.dryRun = true
        #expect(read == request)
    }

    @Test func theEngineOptionsAreTheRequestsOwn() {
        let options = Self.everything().updateOptions(earlierBootloaderName: "Dfu00001")
        #expect(options.mode == .confirmOnly, "image 1 cannot be confirmed after the reboot")
        #expect(options.imageIndex == 1 && options.minimumBattery == 45 && options.requireNewer && !options.allowDowngrade)
        #expect(options.allowHostOnBattery && options.allowUnsigned && options.expectedVersion == "1.1.0")
        #expect(options.packetReceiptNotification == 12 && options.bootloaderName == "Dfu04711")
        #expect(options.earlierBootloaderName == "Dfu00001" && !options.dryRun)
        #expect(options.deadlines.connect == .milliseconds(2500) && options.deadlines.firstChunk == .seconds(60)
                && options.deadlines.firstChunkPerMiB == nil && options.deadlines.reboot == UpdateOptions.Deadlines().reboot)
    }

    @Test func aWaitGivenLaterWinsAndTheOthersStay() {
        let stored = FlashRequest.Timeouts(connect: 2, reboot: 90)
        #expect(stored.overridden(by: .init(connect: 5, chunk: 3)) == .init(connect: 5, reboot: 90, chunk: 3))
        #expect(stored.overridden(by: .init()) == stored)
    }

    @Test func relativePathsAreMadeAbsoluteInTheGivenDirectory() {
        var request = FlashRequest(imagePath: "build/app.bin", device: "sim")
        request.keyPath = "/keys/pub.pem"
        let resolved = request.resolvingPaths(in: "/work")
        #expect(resolved.imagePath == "/work/build/app.bin" && resolved.keyPath == "/keys/pub.pem")
    }

    @Test func theFileFactsNameTheProtocolTheRegistryGivesIt() throws {
        let image = try Samples.bytes("images/blinky-ecdsa-p256-1.1.0.signed.bin")
        let facts = try #require(UpdateFileFacts(of: image))
        #expect(facts.protocolName == .smp && facts.size == image.count && facts.sha256.count == 64)
        let package = try #require(UpdateFileFacts(of: Samples.bytes("nordic/app-signed-3.zip")))
        #expect(package.protocolName == .nordic)
    }
}
