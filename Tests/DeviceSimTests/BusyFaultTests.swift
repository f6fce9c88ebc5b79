import DFUCore
import DeviceSim
import Testing

/// `busy@N[:COUNT]`: upload requests after the trigger are answered `rc: 10` (MGMT_ERR_EBUSY)
/// without being written; the session stays, so asking again at the same offset carries on.
@Suite struct BusyFaultTests {
    let image: [UInt8]

    init() throws {
        image = try SimSamples.blinky("1.1.0")
    }

    @Test func busyAnswersLeaveTheSessionAndFlashAsTheyWere() throws {
        var h = try DeviceHarness.make(faults: [.busy(at: .bytes(4000), count: 2)])
        let stopped = try h.upload(image, stopAt: 4000)
        let session = try #require(h.device.server.uploadSession)
        #expect(session.offset == stopped)
        let next = Array(image[stopped ..< stopped + 1000])
        for _ in 0 ..< 2 {
            #expect(try h.call(ImageUploadRequest(offset: UInt64(stopped), data: next)) == .failure(.mcumgr(.busy)))
        }
        #expect(h.device.server.uploadSession == session, "nothing written, session kept")
        let reply = try h.call(ImageUploadRequest(offset: UInt64(stopped), data: next)).get()
        #expect(reply.offset == UInt64(stopped + 1000), "the third try is taken")
    }

    @Test func busyFaultParsesWithItsCount() throws {
        #expect(try SimOptions.parse("sim:fault=busy@40%").faults == [.busy(at: .percent(40), count: 1)])
        #expect(try SimOptions.parse("sim:fault=busy@4K:3").faults == [.busy(at: .bytes(4096), count: 3)])
        #expect(try SimOptions.parse("sim:fault=busy@4K:3").canonicalText.contains("fault=busy@4096:3"))
        #expect(throws: SimOptionsError.self) { try SimOptions.parse("sim:fault=busy@4K:0") }
        #expect(throws: SimOptionsError.self) { try SimOptions.parse("sim:fault=stall@4K:3") }
    }
}
