import DFUCore
import DeviceSim
import Testing

/// The whole MCUboot update as a client drives it over raw SMP packets: upload, test, reset, check,
/// confirm, reset again (reference §4).
@Suite struct UpdateFlowTests {
    @Test func uploadedImageBootsUnconfirmedAfterTestAndStaysAfterConfirm() throws {
        var h = try DeviceHarness.make(version: "1.0.0")
        let image = try SimSamples.blinky("1.1.0")
        let newHash = try SimSamples.slotHash(image)
        let oldHash = try #require(try h.state().slot(0)?.hash)

        #expect(try h.upload(image) == image.count)
        let uploaded = try h.state()
        #expect(uploaded.slot(1)?.version == "1.1.0")
        #expect(uploaded.slot(1)?.hash == newHash)
        #expect(uploaded.slot(1).map { !$0.pending && !$0.confirmed && !$0.active } == true)

        let tested = try h.call(ImageStateWriteRequest(hash: newHash, confirm: false)).get()
        #expect(tested.slot(1)?.pending == true)
        #expect(tested.slot(1)?.permanent == false)

        _ = try h.call(OSResetRequest()).get()
        h.runUntilIdle()
        #expect(h.device.firmwareRevision == "1.1.0")
        h.connect()

        let booted = try h.state()
        let slot0 = try #require(booted.slot(0))
        let slot1 = try #require(booted.slot(1))
        #expect(slot0.version == "1.1.0" && slot0.hash == newHash && slot0.active && !slot0.confirmed)
        #expect(slot1.version == "1.0.0" && slot1.hash == oldHash && slot1.confirmed && !slot1.active)

        let confirmed = try h.call(ImageStateWriteRequest(confirm: true)).get()
        #expect(confirmed.slot(0).map { $0.active && $0.confirmed } == true)
        #expect(confirmed.slot(1).map { !$0.confirmed && !$0.pending } == true)

        _ = try h.call(OSResetRequest()).get()
        h.runUntilIdle()
        h.connect()
        #expect(try h.state().slot(0)?.version == "1.1.0")
        #expect(h.device.boots.map(\.outcome) == [.swapped(permanent: false), .normal])
    }
}
