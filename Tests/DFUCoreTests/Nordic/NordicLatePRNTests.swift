import Testing
@testable import DFUCore

/// A PRN that comes after the receipt timeout: the core asked for the checksum, and the bootloader,
/// which handles its queue in order (SDK `nrf_dfu_req_handler_on_req`: one app_scheduler FIFO for
/// Packet writes and requests), sends the PRN and then the answer, both `60 03 01 offset crc`. The
/// core takes the first for the answer; the second is a late PRN when it is consistent with what
/// was sent, and a violation otherwise.
///
/// With 64-byte packets and PRN 4 the init packet is packets 0–2, data object 0 packets 3–66 and
/// object 1 from 67 (4 per batch). CP writes: 0 Select command, 1 Set PRN 0, 2 Create, 3 Checksum,
/// 4 Execute, 5 Set PRN 4, 6 Select data, 7 Create 0, 8 Execute 0, 9 Create 1, 10 the first
/// checksum of object 1.
@Suite struct NordicLatePRNTests {
    static let dat = nordicTestBytes(141, seed: 31)
    static let image = nordicTestBytes(12_288, seed: 32)
    /// The last packet of object 1's first batch (bytes 4096 ..< 4352).
    static let firstBatchOfObjectOne = 70
    static let checksumAfterIt = 10

    static func checksum(offset: Int, crc: UInt32) -> [UInt8] {
        NordicResponse(opcode: .calculateChecksum,
                       outcome: .success(.checksum(NordicChecksum(offset: UInt32(offset), crc: crc)))).encoded
    }

    func pair(latePRNAt packet: Int) -> NordicTestPair {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image, packetSize: 64, prn: 4)
        pair.latePRNAtPacket = [packet]
        return pair
    }

    @Test func aLatePRNWhileSetPRNIsOutstandingIsNotedAndTheTransferGoesOn() {
        var pair = pair(latePRNAt: Self.firstBatchOfObjectOne)
        #expect(pair.run() == .completed(.validated))
        let holdsImage = pair.deviceHoldsImage
        #expect(holdsImage)
        let stats = pair.core.statistics
        #expect(stats.missingPRNs == 1)
        #expect(stats.latePRNs == 1)
        #expect(stats.lossesDetected == 0)
        #expect(stats.objectsRecreated == 0)
        #expect(pair.core.dataPRN == 4)
        // The checksum the missing PRN asked for, then Set PRN (the crossing), then object 1 goes on.
        #expect(Array(pair.requestsSent[9...11]) == [.create(.data, size: 4096), .calculateChecksum, .setPRN(4)])
        #expect(pair.requestsSent.filter { $0 == .create(.data, size: 4096) }.count == 3)
    }

    @Test func aLatePRNAtTheObjectsEndWhileExecuteIsOutstandingIsNoted() {
        var pair = pair(latePRNAt: 66) // object 0's last packet: its PRN says the object is full
        #expect(pair.run() == .completed(.validated))
        let holdsImage = pair.deviceHoldsImage
        #expect(holdsImage)
        #expect(pair.core.statistics.latePRNs == 1)
        #expect(Array(pair.requestsSent[7...10]) == [.create(.data, size: 4096), .calculateChecksum, .execute,
                                                     .create(.data, size: 4096)])
    }

    @Test func anExtraChecksumWithAnotherCRCIsStillAViolation() {
        var pair = pair(latePRNAt: Self.firstBatchOfObjectOne)
        pair.replaceAnswer = [Self.checksumAfterIt: Self.checksum(offset: 4352, crc: 0xDEAD_BEEF)]
        #expect(pair.run() == .failed(.remoteProtocolViolation(.unexpectedResponse(expected: .setPRN, received: .calculateChecksum))))
        #expect(pair.core.statistics.latePRNs == 0)
    }

    @Test func anExtraChecksumBeyondWhatWasSentIsStillAViolation() {
        var pair = pair(latePRNAt: Self.firstBatchOfObjectOne)
        let beyond = 4352 + 64
        pair.replaceAnswer = [Self.checksumAfterIt: Self.checksum(offset: beyond, crc: CRC32.checksum(Self.image.prefix(beyond)))]
        #expect(pair.run() == .failed(.remoteProtocolViolation(.unexpectedResponse(expected: .setPRN, received: .calculateChecksum))))
    }

    @Test func onlyOneExtraNotificationIsALatePRN() {
        var pair = pair(latePRNAt: Self.firstBatchOfObjectOne)
        pair.injectAfterWrite = [Self.checksumAfterIt: Self.checksum(offset: 4352, crc: CRC32.checksum(Self.image.prefix(4352)))]
        #expect(pair.run() == .failed(.remoteProtocolViolation(.unexpectedResponse(expected: .setPRN, received: .calculateChecksum))))
        #expect(pair.core.statistics.latePRNs == 1)
    }

    @Test func withoutAMissingPRNAnExtraChecksumIsStillAViolation() {
        // PRN off: 5 Select data, 6 Create 0, 7 Checksum of object 0, 8 Execute.
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image)
        pair.injectAfterWrite = [7: Self.checksum(offset: 4096, crc: CRC32.checksum(Self.image.prefix(4096)))]
        #expect(pair.run() == .failed(.remoteProtocolViolation(.unexpectedResponse(expected: .execute, received: .calculateChecksum))))
        #expect(pair.core.statistics.latePRNs == 0)
    }
}
