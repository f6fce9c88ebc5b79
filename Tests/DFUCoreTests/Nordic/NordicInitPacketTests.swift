import Testing
@testable import DFUCore

@Suite("Nordic init packet")
struct NordicInitPacketTests {
    @Test func decodesSignedPacketNrfutilWrote() throws {
        let dat = try NordicSamples.initPacket(signed: true)
        let packet = try NordicInitPacket(bytes: dat, file: "blinky.dat")
        // Reference §4.1/§9: 141 bytes, InitCommand at offset 9, signature the last 64 bytes.
        #expect(dat.count == 141)
        #expect(packet.initCommandRange == 9 ..< 73)
        #expect(packet.signature?.type == 0)
        #expect(packet.signature?.bytes == Array(dat.suffix(64)))
        let command = packet.initCommand
        #expect(command.type == .application)
        #expect(command.fwVersion == 3)
        #expect(command.hwVersion == 52)
        #expect(command.sdReq == [0x0101])
        #expect(command.appSize == 49152)
        #expect(command.hashType == .sha256)
        #expect(command.storedHash?.count == 32)
        #expect(command.isDebug == false)
    }

    @Test func decodesUnsignedPacketWithTheSameInitCommand() throws {
        let unsigned = try NordicInitPacket(bytes: NordicSamples.initPacket(signed: false), file: "blinky.dat")
        let signed = try NordicInitPacket(bytes: NordicSamples.initPacket(signed: true), file: "blinky.dat")
        #expect(unsigned.signature == nil)
        #expect(unsigned.initCommand == signed.initCommand)
        #expect(unsigned.signedBytes.elementsEqual(signed.signedBytes))
    }

    /// Command { op_code INIT, init { fw_version 1, app_size 4 } } wrapped as Packet.command.
    private func plainPacket(init initFields: [UInt8], opCode: [UInt8] = [0x08, 0x01]) -> [UInt8] {
        let command = opCode + [0x12, UInt8(initFields.count)] + initFields
        return [0x0A, UInt8(command.count)] + command
    }

    private func reason(_ bytes: [UInt8]) -> String? {
        do {
            _ = try NordicInitPacket(bytes: bytes, file: "x.dat")
            return nil
        } catch {
            if case .initPacketInvalid(_, let reason) = error { return reason }
            return "\(error)"
        }
    }

    @Test func acceptsPackedAndUnpackedSdReqAndSkipsUnknownFields() throws {
        let packed = try NordicInitPacket(bytes: plainPacket(init: [0x1A, 0x03, 0x01, 0xAC, 0x02]), file: "x.dat")
        #expect(packed.initCommand.sdReq == [1, 300])
        // sd_req twice unpacked, plus unknown field 15 (varint) and 16 (fixed32).
        let loose = try NordicInitPacket(bytes: plainPacket(init: [0x18, 0x01, 0x18, 0x02, 0x78, 0x05, 0x85, 0x01, 1, 2, 3, 4]),
                                         file: "x.dat")
        #expect(loose.initCommand.sdReq == [1, 2])
    }

    @Test func refusesWhatTheBootloaderWouldNotTake() {
        #expect(reason([0x0A, 0x00]) == "Command.op_code is not INIT")
        #expect(reason(plainPacket(init: [], opCode: [0x08, 0x00])) == "Command.op_code is not INIT")
        #expect(reason([]) == "Packet has neither command nor signed_command")
        #expect(reason([0x0A, 0x00, 0x12, 0x00])?.contains("both") == true)
        #expect(reason(plainPacket(init: [0x08, 0x01, 0x08, 0x02])) == "InitCommand.fw_version appears 2 times")
        #expect(reason(plainPacket(init: [0x0A, 0x00])) == "InitCommand.fw_version has the wrong wire type")
        #expect(reason(plainPacket(init: [0x08, 0x80, 0x80, 0x80, 0x80, 0x10])) == "InitCommand.fw_version = 4294967296 does not fit uint32")
        #expect(reason(plainPacket(init: [0x0B])) == "InitCommand: wire type 3 at byte 6 is a group or undefined")
        #expect(reason([0x12, 0x02, 0x0A, 0x00])?.contains("SignedCommand has no signature_type") == true)
        #expect(reason(Array(repeating: 0, count: 513))?.contains("at most 512") == true)
    }
}
