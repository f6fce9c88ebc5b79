import Testing
@testable import DFUCore
import Transport

/// Lost and corrupted packets, the retry budget, and every refusal the bootloader can give.
@Suite struct NordicRecoveryTests {
    static let dat = nordicTestBytes(141, seed: 11)
    static let image = nordicTestBytes(12_288, seed: 12)

    /// Data object 1's packets are 3 + 64 + n (64-byte packets, after 3 init packets).
    static func objectOnePacket(_ n: Int) -> Int { 3 + 64 + n }

    @Test func aDroppedLastPacketOfABatchShowsAsAMissingPRNAndTheObjectContinuesAtPRN1() {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image, packetSize: 64, prn: 12)
        pair.device.droppedPackets = [Self.objectOnePacket(11)] // the SDK does not count it: no PRN
        #expect(pair.run() == .completed(.validated))
        #expect(pair.deviceHoldsImage)
        let stats = pair.core.statistics
        #expect(stats.missingPRNs == 1)
        #expect(stats.lossesDetected == 1)
        #expect(stats.objectsRecreated == 0)
        #expect(pair.core.dataPRN == 1)
        // Checksum after the missing PRN, then Set PRN 1 and the rest of object 1 without Create.
        let tail = Array(pair.requestsSent.drop { $0 != .create(.data, size: 4096) }.dropFirst().drop { $0 != .create(.data, size: 4096) })
        #expect(Array(tail.prefix(3)) == [.create(.data, size: 4096), .calculateChecksum, .setPRN(1)])
        #expect(pair.requestsSent.filter { $0 == .create(.data, size: 4096) }.count == 3)
    }

    @Test func aDroppedPacketInsideABatchShiftsTheRestSoTheObjectIsCreatedAgain() {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image, packetSize: 64, prn: 12)
        pair.device.droppedPackets = [Self.objectOnePacket(5)]
        #expect(pair.run() == .completed(.validated))
        #expect(pair.deviceHoldsImage)
        let stats = pair.core.statistics
        #expect(stats.missingPRNs == 1)
        #expect(stats.lossesDetected == 1)
        #expect(stats.crcMismatches == 1)
        #expect(stats.objectsRecreated == 1)
        #expect(pair.core.dataPRN == 1)
        #expect(pair.requestsSent.contains(.setPRN(1)))
    }

    @Test func aPRNThatCountsTheDroppedPacketShowsTheShortfallAtOnce() {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image, packetSize: 64, prn: 12)
        pair.device.prnCountsDroppedPackets = true
        pair.device.droppedPackets = [Self.objectOnePacket(23)]
        pair.acceptBeforePRN = false
        #expect(pair.run() == .completed(.validated))
        #expect(pair.deviceHoldsImage)
        #expect(pair.core.statistics.missingPRNs == 0)
        #expect(pair.core.statistics.lossesDetected == 1)
        #expect(pair.core.statistics.objectsRecreated == 0)
        #expect(pair.core.dataPRN == 1)
    }

    @Test func withPRNOffALossShowsInTheObjectsChecksum() {
        var tail = NordicTestPair(initPacket: Self.dat, image: Self.image, packetSize: 64)
        tail.device.droppedPackets = [Self.objectOnePacket(63)]
        #expect(tail.run() == .completed(.validated))
        #expect(tail.deviceHoldsImage)
        #expect(tail.core.statistics.lossesDetected == 1)
        #expect(tail.core.statistics.objectsRecreated == 0)
        #expect(tail.core.dataPRN == 1)

        var middle = NordicTestPair(initPacket: Self.dat, image: Self.image, packetSize: 64)
        middle.device.droppedPackets = [Self.objectOnePacket(40)]
        #expect(middle.run() == .completed(.validated))
        #expect(middle.deviceHoldsImage)
        #expect(middle.core.statistics.lossesDetected == 1)
        #expect(middle.core.statistics.objectsRecreated == 1)
        #expect(middle.core.dataPRN == 1)
    }

    @Test func aCorruptedPacketRecreatesItsObject() {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image, packetSize: 64, prn: 4)
        pair.device.corruptedPackets = [3 + 64 + 64 + 1]
        #expect(pair.run() == .completed(.validated))
        #expect(pair.deviceHoldsImage)
        #expect(pair.core.statistics.crcMismatches == 1)
        #expect(pair.core.statistics.objectsRecreated == 1)
        // A wrong CRC with every byte there cannot tell corruption from reordering: one packet
        // per receipt from then on.
        #expect(pair.core.dataPRN == 1)
    }

    /// The checksum request overtakes the object's last packets (several ATT bearers): the device
    /// reports fewer bytes, dfu resends from there, and the late packets arrive meanwhile, so the
    /// next receipt shows more than dfu sent since, with its CRC. That is taken, not called a lie.
    @Test func packetsOvertakenByTheChecksumRequestAreTakenWhenTheyArrive() {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image, packetSize: 64)
        // The init packet is packets 0 to 2; data object 0 is packets 3 to 66.
        pair.device.lateUntilChecksum = [64, 65, 66]
        #expect(pair.run() == .completed(.validated))
        #expect(pair.deviceHoldsImage)
        #expect(pair.core.statistics.lossesDetected >= 1)
    }

    /// Packets that overtake each other (EATT spreads writes over several bearers): every
    /// attempt with several packets in flight would be reordered again; with one per receipt none is.
    @Test func reorderedPacketsAreSentOnePerReceiptAndTheImageCompletes() {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image, packetSize: 64)
        // From the first data packet (the init packet is packets 0 to 2).
        pair.device.swappedPackets = Set(stride(from: 5, to: 20_000, by: 3))
        #expect(pair.run() == .completed(.validated))
        #expect(pair.deviceHoldsImage)
        #expect(pair.core.statistics.crcMismatches + pair.core.statistics.lossesDetected >= 1)
        #expect(pair.core.dataPRN == 1)
    }

    /// A write overflows object 1 (packets from before its Create landed in it, over several ATT
    /// bearers): the receipt due with it answers 03 (SDK nrf_dfu_ble.c sends the write's result as
    /// the CRC answer). The object is created again, one packet per receipt, and the image completes.
    @Test func aReceiptAnsweringInvalidParameterRecreatesTheOverflowedObject() {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image, packetSize: 64, prn: 4)
        // The init packet is packets 0 to 2, data object 0 packets 3 to 66; with PRN 4 a receipt
        // is due at object 1's twelfth packet.
        pair.device.overflowingPackets = [Self.objectOnePacket(11)]
        #expect(pair.run() == .completed(.validated))
        #expect(pair.deviceHoldsImage)
        #expect(pair.core.statistics.objectOverflows >= 1)
        #expect(pair.core.dataPRN == 1)
    }

    @Test func aLostInitPacketByteRecreatesTheCommandObject() {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image, packetSize: 64)
        pair.device.droppedPackets = [1]
        #expect(pair.run() == .completed(.validated))
        #expect(pair.requestsSent.filter { $0 == .create(.command, size: 141) }.count == 2)
        #expect(pair.deviceHoldsImage)
    }

    @Test(arguments: [0, 1, 3])
    func anObjectThatKeepsFailingExhaustsItsRetries(retries: Int) {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image, packetSize: 64, retries: retries)
        // Every attempt at object 1 gets one corrupted packet.
        pair.device.corruptedPackets = Set((0...retries).map { 3 + 64 + $0 * 64 + 7 })
        let outcome = pair.run()
        #expect(outcome == .failed(.retriesExhausted(object: "data object 1 (bytes 4096..<8192)", attempts: retries + 1)))
        #expect(pair.requestsSent.filter { $0 == .create(.data, size: 4096) }.count == 2 + retries)
        #expect(pair.failedActions == 1)
    }

    @Test func theCommandObjectHasItsOwnBudget() {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image, packetSize: 64)
        pair.device.corruptedPackets = [0, 3, 6, 9]
        #expect(pair.run() == .failed(.retriesExhausted(object: "the command object", attempts: 4)))
    }

    @Test func linkLossesCountAgainstTheObjectInProgress() {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image, packetSize: 64, retries: 2)
        pair.dropLinkAtPacket = [3 + 64 + 3, 3 + 64 + 20, 3 + 64 + 40]
        #expect(pair.run() == .failed(.retriesExhausted(object: "data object 1 (bytes 4096..<8192)", attempts: 3)))
        #expect(pair.reconnectCount == 2)
    }

    static let extendedErrors: [UInt8] = Array(0x00...0x0E) + [0x0F, 0x42, 0xFF]

    @Test(arguments: extendedErrors)
    func everyExtendedErrorOfTheInitPacketIsNamed(code: UInt8) {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image)
        let error = NordicRemoteError(result: .extendedError, extended: NordicExtendedError(rawValue: code))
        pair.device.initRejection = error
        let outcome = pair.run()
        #expect(outcome == .failed(.initPacketRejected(error)))
        if case .failed(let failure) = outcome {
            #expect(failure.description.contains(NordicExtendedError(rawValue: code).name))
        }
        #expect(!pair.requestsSent.contains(.select(.data)))
    }

    @Test(arguments: extendedErrors)
    func everyExtendedErrorOfTheFinalValidationIsNamed(code: UInt8) {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image)
        let error = NordicRemoteError(result: .extendedError, extended: NordicExtendedError(rawValue: code))
        pair.device.validationFailure = error
        #expect(pair.run() == .failed(.validationFailed(error)))
        #expect(pair.device.completedImage == nil)
    }

    @Test(arguments: [NordicResultCode.invalidObject, .operationNotPermitted, .insufficientResources, .unknown(0x33)])
    func plainRefusalsOfTheInitPacketAndTheImage(result: NordicResultCode) {
        var rejected = NordicTestPair(initPacket: Self.dat, image: Self.image)
        rejected.device.initRejection = NordicRemoteError(result: result)
        #expect(rejected.run() == .failed(.initPacketRejected(NordicRemoteError(result: result))))

        var invalid = NordicTestPair(initPacket: Self.dat, image: Self.image)
        invalid.device.validationFailure = NordicRemoteError(result: result)
        #expect(invalid.run() == .failed(.validationFailed(NordicRemoteError(result: result))))
    }

    @Test func aCorruptImageFailsTheDevicesVerification() {
        // The corruption is in the bytes the device hashes, not in what the CRC saw: the fake
        // validates against another image than the one sent.
        let dat = Self.dat
        let sent = nordicTestBytes(8192, seed: 13)
        var pair = NordicTestPair(initPacket: dat, image: sent)
        pair.device = NordicFakeBootloader(initPacket: dat, image: sent.map { $0 ^ 1 })
        #expect(pair.run() == .failed(.validationFailed(NordicRemoteError(result: .extendedError, extended: .verificationFailed))))
    }

    @Test func anInitPacketLargerThanTheCommandObjectFailsBeforeAnyCreate() {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image, commandMaxSize: 128)
        #expect(pair.run() == .failed(.initPacketTooLarge(size: 141, maxSize: 128)))
        #expect(pair.requestsSent == [.select(.command)])
    }

    @Test(arguments: [(0, 8), (10, 8), (4, 0), (8, 0)])
    func badJobsFailWithoutSendingAnything(firmwareCount: Int, datCount: Int) {
        var pair = NordicTestPair(initPacket: nordicTestBytes(datCount, seed: 1), image: nordicTestBytes(firmwareCount, seed: 2),
                                  packetSize: 20)
        if case .failed(.invalidJob) = pair.run() {} else { Issue.record("\(firmwareCount)/\(datCount) was accepted") }
        #expect(pair.cpWrites == 0)
    }

    @Test func aPacketSizeNotAMultipleOf4IsRefused() {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image, packetSize: 22)
        if case .failed(.invalidJob) = pair.run() {} else { Issue.record("packet size 22 was accepted") }
    }

    @Test func anATTErrorOnTheControlPointEndsTheRunWhenTheLinkStaysUp() {
        var core = NordicTransferCore(initPacket: Self.dat, firmware: Self.image,
                                      configuration: NordicTransferConfiguration(packetSize: 244))
        _ = core.handle(.start, now: .zero)
        let refused = core.handle(.controlPointWriteRejected(attError: 0xFD), now: .zero)
        #expect(refused == [.timer(at: .zero + .seconds(1))], "the link gets a second to show it is going down")
        #expect(core.handle(.timerFired, now: .zero + .milliseconds(999)).isEmpty) // early: nothing
        let actions = core.handle(.timerFired, now: .zero + .seconds(1))
        #expect(actions.contains(.failed(.controlPointWriteRejected(attError: 0xFD))))
        #expect(core.handle(.controlPointNotification([0x60, 0x06, 0x01]), now: .zero).isEmpty)
    }

    /// bluetoothd fails a write on a link going down with ATT 0x0E and reports the disconnection
    /// tens of milliseconds later: that is a lost link, resumed from Select like any other. Writes
    /// 7 and 11 are a checksum and a Create of the data objects here.
    @Test(arguments: [3, 7, 11])
    func anATTErrorFollowedByTheLinksLossIsResumed(write: Int) {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image, packetSize: 64)
        pair.dyingLinkAtWrite = [write]
        #expect(pair.run() == .completed(.validated))
        #expect(pair.deviceHoldsImage)
        #expect(pair.core.statistics.linkLosses == 1)
        #expect(pair.requestsAfterReconnect.first == .select(.command), "resumes with Select")
    }

    /// The same error with the link still up after `linkVerdictDelay` is the refusal it says.
    @Test func anATTErrorWithoutALossWithinTheDelayEndsTheRun() {
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image, packetSize: 64)
        pair.dyingLinkAtWrite = [7]
        pair.dyingLinkReportDelay = .seconds(2)
        #expect(pair.run() == .failed(.controlPointWriteRejected(attError: 0x0E)))
    }

    /// The final Execute's write failing as the link goes down counts as outstanding when the
    /// link went: the bootloader may have taken it and reset, and the new version decides.
    @Test func aFailedFinalExecuteWriteOnADyingLinkEndsUnconfirmed() {
        var probe = NordicTestPair(initPacket: Self.dat, image: Self.image, packetSize: 64)
        #expect(probe.run() == .completed(.validated))
        var pair = NordicTestPair(initPacket: Self.dat, image: Self.image, packetSize: 64)
        pair.dyingLinkAtWrite = [probe.cpWrites - 1]
        #expect(pair.run() == .completed(.unconfirmed))
    }

    @Test func aSilentDeviceTimesOut() {
        var core = NordicTransferCore(initPacket: Self.dat, firmware: Self.image,
                                      configuration: NordicTransferConfiguration(packetSize: 244))
        let first = core.handle(.start, now: .zero)
        #expect(first.contains(.writeControlPoint([0x06, 0x01])))
        #expect(first.contains(.timer(at: .zero + .seconds(10))))
        #expect(core.handle(.timerFired, now: .zero + .seconds(9)).isEmpty) // early: nothing
        #expect(core.handle(.timerFired, now: .zero + .seconds(10)).contains(
            .failed(.timeout(waitingFor: "Select command object", after: .seconds(10)))))
    }

    @Test func eventsTheStateCannotTakeAreTheDriversBug() {
        var core = NordicTransferCore(initPacket: Self.dat, firmware: Self.image,
                                      configuration: NordicTransferConfiguration(packetSize: 244))
        let actions = core.handle(.packetsAccepted, now: .zero)
        #expect(actions.contains(.failed(.localProtocolViolation(event: "packetsAccepted", state: "ready"))))
    }
}
