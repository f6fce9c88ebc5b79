@testable import ReferenceDevices
import Testing

@Suite struct MCUmgrSerialApplicationUpdateTests {
    @Test func wholeUpdateOfASignedSampleThroughTestResetAndConfirm() throws {
        let old = try Samples.file("images/blinky-ecdsa-p256-1.0.0.signed.bin")
        let new = try Samples.file("images/blinky-ecdsa-p256-1.1.0.signed.bin")
        let newHash = Samples.hex("5c4fd4450dc19689d038b5407d643ab70079f9f2c89cca2a9f3de4ca692a1b82")
        var rig = SerialRig(.test(old))
        #expect(rig.device.mode == .application)
        #expect(rig.device.runningVersion?.description == "1.0.0")

        let before = try unwrap(rig.imageList())
        #expect(before["images"]?.array?.count == 1)
        #expect(before["images"]?.array?.first?["hash"]?.bytes == Samples.hex("6b6d3ce76bb052483df1067a5dbeba92f2217895be593654c2ba5c70da70cc7c"))
        #expect(before["splitStatus"]?.uint == 0)

        let answers = rig.upload(new, sha: newHash)
        #expect(answers.last?["off"]?.uint == UInt64(new.count))
        #expect(answers.allSatisfy { $0.keys == ["off"] })  // no "rc" on success, no "match" (image check off)
        #expect(Array(rig.device.slotContents(1).prefix(new.count)) == new)

        let listed = try unwrap(rig.imageList()?["images"]?.array)
        #expect(listed.count == 2)
        #expect(listed[1]["slot"]?.uint == 1)
        #expect(listed[1]["version"]?.text == "1.1.0")
        #expect(listed[1]["hash"]?.bytes == newHash)
        #expect(listed[1].keys == ["slot", "version", "hash", "bootable", "pending", "confirmed", "active", "permanent"])
        #expect(listed[1]["pending"]?.bool == false)

        let tested = try unwrap(rig.setImageState(hash: newHash, confirm: false)?["images"]?.array)
        #expect(tested[1]["pending"]?.bool == true)
        #expect(tested[1]["permanent"]?.bool == false)
        #expect(rig.device.secondaryPending)

        #expect(rig.reset() == .map([]))
        #expect(rig.log.contains(.detach))
        #expect(rig.log.last == .attach)
        #expect(rig.device.mode == .application)
        #expect(rig.device.runningVersion?.description == "1.1.0")
        #expect(!rig.device.runningImageConfirmed)
        #expect(rig.device.counters.swaps == 1)

        let running = try unwrap(rig.imageList()?["images"]?.array)
        #expect(running[0]["version"]?.text == "1.1.0")
        #expect(running[0]["active"]?.bool == true)
        #expect(running[0]["confirmed"]?.bool == false)
        #expect(running[1]["version"]?.text == "1.0.0")
        #expect(running[1]["confirmed"]?.bool == true)

        // Confirm without a hash confirms the running image.
        let confirmed = try unwrap(rig.setImageState(hash: nil, confirm: true)?["images"]?.array)
        #expect(confirmed[0]["confirmed"]?.bool == true)
        #expect(rig.device.runningImageConfirmed)

        rig.reset()
        #expect(rig.device.runningVersion?.description == "1.1.0")
        #expect(rig.device.counters.swaps == 1)
        #expect(rig.device.counters.boots == 3)
        #expect(rig.device.counters.linesDroppedNoBuffer == 0)
        #expect(rig.device.counters.fragmentsDroppedNoNetbuf == 0)
    }

    @Test func aTestedImageNotConfirmedIsRevertedAtTheNextReset() throws {
        let new = Samples.image(major: 2, minor: 0)
        var rig = SerialRig(.test())
        rig.upload(new)
        _ = rig.setImageState(hash: Samples.hash(of: new), confirm: false)
        rig.reset()
        #expect(rig.device.runningVersion?.description == "2.0.0")
        rig.reset()
        #expect(rig.device.runningVersion?.description == "1.0.0")
        #expect(rig.device.runningImageConfirmed)
        #expect(rig.device.counters.reverts == 1)
        // The reverted image waits in slot 1, confirmed, not pending.
        let slots = try unwrap(rig.imageList()?["images"]?.array)
        #expect(slots[1]["version"]?.text == "2.0.0")
        #expect(slots[1]["pending"]?.bool == false)
    }

    @Test func aPermanentRequestSwapsWithoutNeedingAConfirm() {
        let new = Samples.image(major: 1, minor: 5)
        var rig = SerialRig(.test())
        rig.upload(new)
        let answer = rig.setImageState(hash: Samples.hash(of: new), confirm: true)
        #expect(answer?["images"]?.array?[1]["permanent"]?.bool == true)
        rig.reset()
        #expect(rig.device.runningVersion?.description == "1.5.0")
        #expect(rig.device.runningImageConfirmed)
    }

    @Test func anImageWhoseHashDoesNotHoldIsErasedByMCUbootInsteadOfSwapped() throws {
        var bad = Samples.image(major: 3, minor: 0)
        bad[100] ^= 0x01
        var rig = SerialRig(.test())
        rig.upload(bad)
        // img_mgmt reads the hash TLV without checking it, so the test request is accepted.
        #expect(rig.setImageState(hash: Samples.hash(of: bad), confirm: false)?["images"] != nil)
        rig.reset()
        #expect(rig.device.runningVersion?.description == "1.0.0")
        #expect(rig.device.counters.invalidSecondaryErased == 1)
        #expect(rig.device.slotContents(1).allSatisfy { $0 == 0xFF })
    }
}
