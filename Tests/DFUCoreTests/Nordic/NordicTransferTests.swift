@testable import DFUCore
import Testing
import Transport

/// Fresh transfers and resumes (nordic-secure-dfu.md §3.3, §3.4, §10) against the fake bootloader.
@Suite struct NordicTransferTests {
    static let dat = nordicTestBytes(141, seed: 1)
    static let image = nordicTestBytes(10_000, seed: 2)

    @Test func freshTransferWithPRNOffFollowsTheSDKSequence() {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image)
        #expect(pair.run() == .completed(.validated))
        #expect(pair.deviceHoldsImage)
        #expect(pair.requestsSent == [
            .select(.command), .setPRN(0), .create(.command, size: 141), .calculateChecksum, .execute,
            .select(.data),
            .create(.data, size: 4096), .calculateChecksum, .execute,
            .create(.data, size: 4096), .calculateChecksum, .execute,
            .create(.data, size: 1808), .calculateChecksum, .execute,
        ])
        #expect(pair.progress.first == AcknowledgedProgress(acknowledged: 0, total: 10_000))
        #expect(pair.progress.last == AcknowledgedProgress(acknowledged: 10_000, total: 10_000))
        #expect(pair.core.statistics.bytesSent == 141 + 10_000)
        #expect(pair.maxPacket == 244)
        #expect(pair.failedActions == 0)
    }

    @Test func freshTransferWithPRN12UsesEachPRNAsTheCheck() {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image, packetSize: 64, prn: 12)
        #expect(pair.run() == .completed(.validated))
        #expect(pair.deviceHoldsImage)
        // Init with PRN 0, data with PRN 12; 4096-byte objects are 64 packets: 5 PRNs and a short batch.
        #expect(Array(pair.requestsSent.prefix(7)) == [
            .select(.command), .setPRN(0), .create(.command, size: 141), .calculateChecksum, .execute,
            .setPRN(12), .select(.data),
        ])
        #expect(pair.requestsSent.filter { $0 == .calculateChecksum }.count == 4)
        #expect(pair.core.statistics.packetsSent == 3 + (10_000 + 63) / 64)
        #expect(pair.core.dataPRN == 12)
    }

    @Test func aPRNDueOnTheObjectsLastPacketReplacesTheChecksumRequest() {
        // 4096 / 256 = 16 packets per object = 2 PRNs of 8: no Calculate Checksum for full objects.
        let image = nordicTestBytes(8192, seed: 3)
        var pair = NordicTestPair(initPacket: Self.dat, image: image, packetSize: 256, prn: 8)
        #expect(pair.run() == .completed(.validated))
        #expect(pair.requestsSent.filter { $0 == .calculateChecksum }.count == 1) // the init packet's
        #expect(pair.deviceHoldsImage)
    }

    @Test(arguments: [(23, 20), (24, 20), (27, 24), (185, 180), (247, 244), (498, 492), (517, 512), (0, 20)])
    func packetSizeIsMTUMinus3RoundedDownTo4(mtu: Int, size: Int) {
        #expect(NordicTransferConfiguration.packetSize(attMTU: mtu) == size)
    }

    @Test func resumesInsideTheCommandObjectWithoutCreate() {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image, packetSize: 64)
        pair.dropLinkAtPacket = [2] // two of three init packets arrive
        #expect(pair.run() == .completed(.validated))
        #expect(pair.reconnectCount == 1)
        #expect(Array(pair.requestsAfterReconnect.prefix(5)) == [
            .select(.command), .setPRN(0), .calculateChecksum, .execute, .select(.data),
        ])
        #expect(pair.deviceHoldsImage)
    }

    @Test func aCommandObjectWithAnotherCRCIsCreatedAnew() {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image, packetSize: 64)
        pair.device.corruptedPackets = [0]
        pair.dropLinkAtPacket = [2]
        #expect(pair.run() == .completed(.validated))
        #expect(Array(pair.requestsAfterReconnect.prefix(3)) == [.select(.command), .setPRN(0), .create(.command, size: 141)])
        #expect(pair.deviceHoldsImage)
    }

    @Test func aCommandOffsetBeyondTheInitPacketIsCreatedAnew() {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image)
        pair.replaceAnswer = [0: NordicResponse(opcode: .selectObject, outcome: .success(.objectInfo(
            NordicObjectInfo(maxSize: 256, offset: 200, crc: 0x1234_5678)))).encoded]
        #expect(pair.run() == .completed(.validated))
        #expect(Array(pair.requestsSent.prefix(3)) == [.select(.command), .setPRN(0), .create(.command, size: 141)])
        #expect(pair.deviceHoldsImage)
    }

    @Test func resumesWithACompleteCommandObjectByExecutingIt() {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image)
        pair.dropLinkAfterWrite = [3] // the init packet's checksum answer is lost
        #expect(pair.run() == .completed(.validated))
        // After a reconnect the device's PRN is unknown: set it again before Select data.
        #expect(Array(pair.requestsAfterReconnect.prefix(4)) == [.select(.command), .execute, .setPRN(0), .select(.data)])
        #expect(!pair.requestsAfterReconnect.contains(.create(.command, size: 141)))
        #expect(pair.deviceHoldsImage)
    }

    @Test(arguments: [NordicFakeBootloader.SDK.sdk15, .sdk17])
    func resumesInsideADataObject(sdk: NordicFakeBootloader.SDK) {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image, packetSize: 64, sdk: sdk)
        pair.dropLinkAtPacket = [3 + 64 + 10] // 10 packets into data object 1
        #expect(pair.run() == .completed(.validated))
        #expect(pair.deviceHoldsImage)
        let after = pair.requestsAfterReconnect
        #expect(!after.contains(.create(.command, size: 141)))
        switch sdk {
        case .sdk15:
            // RAM progress survives: continue object 1 without Create, then the last object.
            #expect(after == [.select(.command), .execute, .setPRN(0), .select(.data), .calculateChecksum, .execute,
                              .create(.data, size: 1808), .calculateChecksum, .execute])
        case .sdk17:
            // Settings reloaded: data from 0, the init packet kept.
            #expect(Array(after.prefix(5)) == [.select(.command), .execute, .setPRN(0), .select(.data),
                                               .create(.data, size: 4096)])
        }
    }

    /// A second transfer (another run) to a bootloader that kept part of the firmware: progress says
    /// where it started, so a report counts only what that transfer sent; the first transfer's, cut
    /// off, started from 0.
    @Test func aTransferThatResumesAnEarlierOneSaysWhereItStarted() {
        var first = NordicTestPair(initPacket: Self.dat, image: Self.image, packetSize: 64)
        first.dropLinkAtPacket = [3 + 64 + 10] // 10 packets into data object 1
        first.reconnects = false
        #expect(first.run() != .completed(.validated))
        #expect(first.progress.allSatisfy { $0.startOffset == 0 })
        var second = NordicTestPair(initPacket: Self.dat, image: Self.image, packetSize: 64)
        second.device = first.device
        #expect(second.run() == .completed(.validated))
        #expect(second.deviceHoldsImage)
        let held = second.progress.first { $0.acknowledged > 0 }?.startOffset ?? 0
        #expect(held >= 4096, "at least object 0 was kept: \(second.progress)")
        #expect(second.progress.allSatisfy { $0.startOffset == held || $0.acknowledged == 0 })
    }

    @Test func resumesOnAnObjectBoundaryByExecutingThatObject() {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image)
        // CP writes: 0 select, 1 prn, 2 create, 3 crc, 4 exec, 5 select data, 6 create, 7 crc, 8 exec.
        pair.dropLinkBeforeWrite = [8] // object 0 received and checked, never executed
        #expect(pair.run() == .completed(.validated))
        #expect(Array(pair.requestsAfterReconnect.prefix(6)) == [
            .select(.command), .execute, .setPRN(0), .select(.data), .execute, .create(.data, size: 4096),
        ])
        #expect(pair.deviceHoldsImage)
    }

    @Test func aSecondExecuteOfAnExecutedObjectSucceeds() {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image)
        pair.dropLinkAfterWrite = [8] // executed, the answer lost: Execute again answers 01 (§10.1)
        #expect(pair.run() == .completed(.validated))
        #expect(Array(pair.requestsAfterReconnect.prefix(6)) == [
            .select(.command), .execute, .setPRN(0), .select(.data), .execute, .create(.data, size: 4096),
        ])
        #expect(pair.deviceHoldsImage)
    }

    @Test func operationNotPermittedOnAResumedExecuteMeansAlreadyExecuted() {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image)
        pair.dropLinkAfterWrite = [9] // Create of object 1 done, unfilled: Execute answers 08
        #expect(pair.run() == .completed(.validated))
        #expect(Array(pair.requestsAfterReconnect.prefix(6)) == [
            .select(.command), .execute, .setPRN(0), .select(.data), .execute, .create(.data, size: 4096),
        ])
        #expect(pair.deviceHoldsImage)
    }

    @Test func aMismatchedCRCOnResumeRecreatesTheCurrentObject() {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image, packetSize: 64)
        pair.device.corruptedPackets = [3 + 64 + 5]
        pair.dropLinkAtPacket = [3 + 64 + 20] // the corruption sits in object 1 when the link drops
        #expect(pair.run() == .completed(.validated))
        let after = pair.requestsAfterReconnect
        #expect(Array(after.prefix(5)) == [.select(.command), .execute, .setPRN(0), .select(.data), .create(.data, size: 4096)])
        #expect(pair.core.statistics.crcMismatches == 1)
        #expect(pair.deviceHoldsImage)
    }

    @Test func aLinkLostDuringTheFinalExecuteIsAnUnconfirmedCompletion() {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image)
        pair.dropLinkAfterWrite = [14]
        #expect(pair.run() == .completed(.unconfirmed))
        #expect(pair.deviceHoldsImage)
    }

    @Test func aLinkNotRestoredFailsAtItsDeadline() {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image)
        pair.dropLinkBeforeWrite = [6]
        pair.reconnects = false
        #expect(pair.run() == .failed(.linkNotRestored(after: .seconds(60))))
        #expect(pair.now >= MonotonicInstant.zero + .seconds(60))
    }
}
