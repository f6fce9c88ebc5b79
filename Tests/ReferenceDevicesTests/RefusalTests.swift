import ReferenceDevices
import Testing
import Transport

/// Every answer other than success the model gives, with the SDK function that gives it.
@Suite struct RefusalTests {
    /// Executes the init packet of `update` on a fresh bootloader and returns the answer.
    static func execute(_ update: Update, _ edit: (inout SDKDeviceConfiguration) -> Void = { _ in }) -> [UInt8]? {
        var bench = Bench(Update.config(edit))
        bench.enterBootloader()
        bench.connectBootloader()
        return bench.sendInitPacket(update.initPacket)
    }

    @Test func initCommandChecksAnswerTheirExtendedErrors() throws {
        // nrf_dfu_ver_validation_check, in order.
        #expect(Self.execute(try .application { $0.type = 4 }) == [0x60, 0x04, 0x0B, 0x04])
        #expect(Self.execute(try .application { $0.type = nil }) == [0x60, 0x04, 0x0B, 0x04])
        #expect(Self.execute(try .application { $0.hashType = 2 }) == [0x60, 0x04, 0x0B, 0x09])
        #expect(Self.execute(try .application { $0.hwVersion = nil }) == [0x60, 0x04, 0x0B, 0x04])
        #expect(Self.execute(try .application { $0.hwVersion = 53 }) == [0x60, 0x04, 0x0B, 0x06])
        #expect(Self.execute(try .application { $0.sdReq = [0x00A8] }) == [0x60, 0x04, 0x0B, 0x07])
        #expect(Self.execute(try .application { $0.sdReq = [] }) == [0x60, 0x04, 0x0B, 0x07])
        #expect(Self.execute(try .application { $0.sdReq = [0, 0x0101] }) == [0x60, 0x04, 0x0B, 0x07])
        #expect(Self.execute(try .application(version: 0)) == [0x60, 0x04, 0x0B, 0x05])
        #expect(Self.execute(try .application { $0.fwVersion = nil }) == [0x60, 0x04, 0x0B, 0x04])
        // update_data_size_get: no size.
        #expect(Self.execute(try .application { $0.appSize = nil }) == [0x60, 0x04, 0x0B, 0x04])
    }

    @Test func versionPolicyFollowsTheConfiguration() throws {
        #expect(Self.execute(try .application(version: 1)) == [0x60, 0x04, 0x01])
        #expect(Self.execute(try .application(version: 1)) { $0.acceptSameApplicationVersion = false }
            == [0x60, 0x04, 0x0B, 0x05])
        #expect(Self.execute(try .application(version: 0)) { $0.applicationDowngradePrevention = false }
            == [0x60, 0x04, 0x01])
        #expect(Self.execute(try .application { $0.sdReq = [0xFFFE] }) == [0x60, 0x04, 0x0B, 0x07])
        #expect(Self.execute(try .application { $0.sdReq = [0x00A8, 0x0101] }) == [0x60, 0x04, 0x01])
    }

    @Test func signatureChecksAnswerTheirCodes() throws {
        let good = try Update.application()
        let command = good.fields.encoded()
        var other = good
        other.initPacket = InitPacket.unsigned(command)
        #expect(Self.execute(other) == [0x60, 0x04, 0x0B, 0x08])
        #expect(Self.execute(other) { $0.requireSignedApplicationUpdate = false } == [0x60, 0x04, 0x01])
        other.initPacket = InitPacket.signed(command, signature: try TestKey.shared.sign(command), signatureType: 1)
        #expect(Self.execute(other) == [0x60, 0x04, 0x0B, 0x0B])
        var signature = try TestKey.shared.sign(command)
        other.initPacket = InitPacket.signed(command, signature: Array(signature.prefix(63)))
        #expect(Self.execute(other) == [0x60, 0x04, 0x0A])
        signature[5] ^= 0x01
        other.initPacket = InitPacket.signed(command, signature: signature)
        #expect(Self.execute(other) == [0x60, 0x04, 0x05])
        // Signed by another key.
        other.initPacket = InitPacket.signed(command, signature: try TestKey().sign(command))
        #expect(Self.execute(other) == [0x60, 0x04, 0x05])
        // Not a protobuf Packet at all.
        other.initPacket = [0xFF, 0xFF, 0xFF, 0x01]
        #expect(Self.execute(other) == [0x60, 0x04, 0x05])
    }

    @Test func anUpdateThatFitsNowhereIsRefused04AndOneThatFitsOnlyOverTheAppRemovesIt() throws {
        // DFU region: 0x26000 … 0x75000 (0x78000 − 12 KiB) = 323,584 bytes.
        #expect(Self.execute(try .application(size: 323_588)) == [0x60, 0x04, 0x04])
        var bench = Bench(Update.config())
        bench.enterBootloader()
        bench.connectBootloader()
        #expect(bench.sendInitPacket(try Update.application(size: 300_000).initPacket) == [0x60, 0x04, 0x01])
        // The old application was given up at once (single bank): a timeout keeps the device here.
        bench.advance(.seconds(120))
        bench.advance(.milliseconds(100))
        #expect(bench.device.mode == .bootloader)
    }

    @Test func commandObjectRequestsAreChecked() throws {
        var bench = Bench(Update.config())
        bench.enterBootloader()
        bench.connectBootloader()
        #expect(bench.cp([0x01, 0x01] + le32(0)).notification == [0x60, 0x01, 0x03])
        #expect(bench.cp([0x01, 0x01] + le32(513)).notification == [0x60, 0x01, 0x04])
        #expect(bench.cp([0x01, 0x01] + le32(8)).notification == [0x60, 0x01, 0x01])
        _ = bench.cp([0x02, 0x01, 0x00])
        #expect(bench.packet([1, 2, 3, 4]).notification == [0x60, 0x03, 0x01] + le32(4) + le32(crc32([1, 2, 3, 4])))
        #expect(bench.cp([0x04]).notification == [0x60, 0x04, 0x08])
        #expect(bench.packet([1, 2, 3, 4, 5]).notification == [0x60, 0x03, 0x03])
        // Nothing executable selected at all: an empty command.
        var fresh = Bench(Update.config())
        fresh.enterBootloader()
        fresh.connectBootloader()
        #expect(fresh.cp([0x04]).notification == [0x60, 0x04, 0x05])
    }

    @Test func dataObjectRequestsAreChecked() throws {
        let update = try Update.application(size: 10_000)
        var bench = Bench(Update.config())
        bench.enterBootloader()
        bench.connectBootloader()
        #expect(bench.cp([0x01, 0x02] + le32(4096)).notification == [0x60, 0x01, 0x08])
        #expect(bench.sendInitPacket(update.initPacket) == [0x60, 0x04, 0x01])
        #expect(bench.cp([0x01, 0x02] + le32(0)).notification == [0x60, 0x01, 0x03])
        #expect(bench.cp([0x01, 0x02] + le32(1000)).notification == [0x60, 0x01, 0x03])
        #expect(bench.cp([0x01, 0x02] + le32(8192)).notification == [0x60, 0x01, 0x04])
        #expect(bench.cp([0x01, 0x02] + le32(4096)).notification == [0x60, 0x01, 0x01])
        _ = bench.cp([0x02, 0x01, 0x00])
        #expect(bench.packet([UInt8](repeating: 0, count: 244)).notification?.prefix(3) == [0x60, 0x03, 0x01])
        #expect(bench.cp([0x04]).notification == [0x60, 0x04, 0x08])
        // Objects of 4096, 4096, then the last 1808; 12288 would run past the image.
        var next = Bench(Update.config())
        next.enterBootloader()
        next.connectBootloader()
        _ = next.sendInitPacket(update.initPacket)
        _ = next.sendImage(Array(update.image.prefix(8192)))
        #expect(next.cp([0x01, 0x02] + le32(4096)).notification == [0x60, 0x01, 0x08])
        #expect(next.cp([0x01, 0x02] + le32(1808)).notification == [0x60, 0x01, 0x01])
    }

    @Test func controlPointNeedsNotificationsAndShortWrites() {
        var bench = Bench(Update.config())
        bench.enterBootloader()
        bench.connect()
        #expect(bench.cp([0x06, 0x01]).refusal == ATTError(code: 0xFD))
        bench.send(.subscribed(SDKGATT.controlPoint))
        #expect(bench.cp([UInt8](repeating: 6, count: 24)).refusal == .invalidAttributeValueLength)
        #expect(bench.cp([0x7F]).notification == [0x60, 0x7F, 0x02])
        #expect(bench.cp([0x06, 0x03]).notification == [0x60, 0x06, 0x05])
        #expect(bench.cp([0x03]).notification == [0x60, 0x03, 0x05])
    }

    @Test func reducedProtocolDependsOnTheSDK() {
        for (version, result) in [(SDKVersion.v17_0, UInt8(0x02)), (.v15_0, 0x01)] {
            var bench = Bench(Update.config { $0.sdkVersion = version })
            bench.enterBootloader()
            bench.connectBootloader()
            for op: UInt8 in [0x00, 0x07, 0x09, 0x0A, 0x0B] {
                #expect(bench.cp([op]).notification == [0x60, op, result])
            }
            #expect(bench.cp([0x06, 0x01]).words.first == version.initCommandMaxSize)
        }
    }
}
