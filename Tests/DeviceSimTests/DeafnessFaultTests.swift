import DFUCore
import DeviceSim
import Testing

/// `outage@N:D` and `silent@N`: from the chunk that reaches N the device hears nothing (and that
/// chunk's reply is lost), for D or until the upload's resume packet. Once it hears again it
/// answers as before: the first request after the outage, the resume packet itself.
@Suite struct DeafnessFaultTests {
    let image: [UInt8]

    init() throws {
        image = try SimSamples.blinky("1.1.0")
    }

    /// Uploads the first chunk, then writes the one that crosses byte 4,000 (the fault's point):
    /// its reply never comes. Returns the offset the device holds after it.
    private func crossTheFault(_ h: inout DeviceHarness) throws -> Int {
        let first = try h.upload(image, stopAt: 1)
        #expect(first < 4000)
        let chunk = ImageUploadRequest(offset: UInt64(first), data: Array(image[first ..< first + 2000]))
        let sequence = h.nextSequence()
        try h.write(packet: try chunk.packet(sequence: sequence, version: .v2).encoded())
        #expect(!h.responses.contains { $0.header.sequence == sequence }, "the chunk at the fault is not answered")
        return first + 2000
    }

    @Test func theFirstRequestAfterAnOutageIsAnswered() throws {
        var h = try DeviceHarness.make(faults: [.outage(at: .bytes(4000), for: .seconds(2))])
        let held = try crossTheFault(&h)
        h.advance(by: .seconds(3))
        let state = try h.call(ImageStateReadRequest())
        #expect(throws: Never.self) { try state.get() }
        #expect(h.device.server.uploadSession?.offset == held, "the session was kept")
    }

    @Test func theResumePacketThatEndsTheSilenceIsAnswered() throws {
        var h = try DeviceHarness.make(faults: [.silent(at: .bytes(4000))])
        let held = try crossTheFault(&h)
        var resume = ImageUploadRequest(image: nil, length: UInt64(image.count), offset: 0,
                                        sha: try SimSamples.fileSHA(image), data: [])
        let room = try #require(resume.maximumDataCount(packetSize: 2475))
        resume.data = Array(image[0 ..< min(room, 32)])
        let reply = try h.call(resume).get()
        #expect(reply.offset == UInt64(held), "answered with the offset the device holds")
    }
}
