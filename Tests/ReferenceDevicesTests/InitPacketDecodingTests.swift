import DFUCore
import ReferenceDevices
import Testing

/// Init packets the SDK's decode refuses (answered 05), and a bootloader update.
@Suite struct InitPacketDecodingTests {
    static func execute(_ packet: [UInt8]) -> [UInt8]? {
        var update = try? Update.application()
        update?.initPacket = packet
        guard let update else { return nil }
        return RefusalTests.execute(update)
    }

    @Test func malformedOrAmbiguousPacketsAreInvalidObjects() throws {
        let fields = try Update.application().fields
        let command = fields.encoded()
        let signature = try TestKey.shared.sign(command)
        let signed = InitPacket.signed(command, signature: signature)
        // Both Packet.command and Packet.signed_command.
        #expect(Self.execute(InitPacket.unsigned(command) + signed) == [0x60, 0x04, 0x05])
        // Two init fields in one Command (SDK 17's decoding callback).
        let twice = Protobuf.uint(1, 1) + Protobuf.bytes(2, command) + Protobuf.bytes(2, command)
        #expect(Self.execute(Protobuf.bytes(2, Protobuf.bytes(1, twice) + Protobuf.uint(2, 0)
            + Protobuf.bytes(3, signature))) == [0x60, 0x04, 0x05])
        // A hash longer than nanopb's 32 bytes, 17 sd_req entries, a 65-byte signature.
        var long = fields
        long.hash += [0]
        #expect(Self.execute(InitPacket.signed(long.encoded(), signature: signature)) == [0x60, 0x04, 0x05])
        var many = fields
        many.sdReq = Array(repeating: 0x0101, count: 17)
        #expect(Self.execute(InitPacket.signed(many.encoded(), signature: signature)) == [0x60, 0x04, 0x05])
        #expect(Self.execute(InitPacket.signed(command, signature: signature + [0])) == [0x60, 0x04, 0x05])
        // The signature is required in a SignedCommand.
        let noSignature = Protobuf.bytes(2, Protobuf.bytes(1, Protobuf.uint(1, 1) + Protobuf.bytes(2, command))
            + Protobuf.uint(2, 0))
        #expect(Self.execute(noSignature) == [0x60, 0x04, 0x05])
        // Unknown fields are skipped, as nanopb skips them.
        #expect(Self.execute(signed + Protobuf.uint(15, 7)) == [0x60, 0x04, 0x01])
    }

    @Test func bootloaderUpdateRaisesTheBootloaderVersionAndKeepsTheApplication() throws {
        func bootloader(version: UInt64, size: Int) throws -> Update {
            try Update.application(size: size, version: version) {
                $0.type = 2
                $0.appSize = nil
                $0.blSize = UInt64(size)
                $0.bootValidation = []
            }
        }
        #expect(RefusalTests.execute(try bootloader(version: 1, size: 4096)) == [0x60, 0x04, 0x0B, 0x05])
        #expect(RefusalTests.execute(try bootloader(version: 2, size: 0x6004)) == [0x60, 0x04, 0x04])
        let update = try bootloader(version: 2, size: 6000)
        var bench = Bench(Update.config())
        bench.enterBootloader()
        bench.connectBootloader()
        #expect(bench.sendInitPacket(update.initPacket) == [0x60, 0x04, 0x01])
        #expect(bench.sendImage(update.image) == [0x60, 0x04, 0x01])
        bench.finishReset()
        #expect(bench.device.mode == .application)
        #expect(bench.device.bootloaderVersion == 2)
        #expect(bench.device.runningApplicationVersion == 1)
    }
}
