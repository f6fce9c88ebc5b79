import DFUCore
import DeviceSim
import Testing

/// Link drops at a request (`drop-before@`, `drop@`, `drop-after@request:…`): the device closes the
/// link before carrying the request out, instead of answering it, or after answering it; the Nth
/// request of a kind is counted over the device's life.
@Suite struct RequestLinkDropTests {
    let image: [UInt8]
    let hash: [UInt8]

    init() throws {
        image = try SimSamples.blinky("1.1.0")
        hash = try SimSamples.slotHash(image)
    }

    private func point(_ text: String) throws -> SMPRequestPoint {
        let options = try SimOptions.parse("sim:fault=drop@" + text)
        guard case .dropLink(_, let point)? = options.faults.first else { throw PointError() }
        return point
    }

    private struct PointError: Error {}

    private func fired(_ h: DeviceHarness) -> [SimFault] {
        h.log.compactMap { if case .faultInjected(let fault) = $0 { fault } else { nil } }
    }

    /// Sends a test mark and returns whether any reply came.
    private func mark(_ h: inout DeviceHarness) throws -> Bool {
        let sequence = h.nextSequence()
        try h.write(packet: try ImageStateWriteRequest(hash: hash, confirm: false).packet(sequence: sequence).encoded())
        return h.awaitResponse(sequence: sequence) != nil
    }

    @Test func dropBeforeAStateWriteLosesTheRequest() throws {
        let fault = SimFault.dropLink(.beforeHandling, at: try point("request:state-write"))
        var h = try DeviceHarness.make(faults: [fault])
        try h.upload(image)
        #expect(try !mark(&h))
        #expect(fired(h) == [fault])
        #expect(h.log.contains(.dropLink(.fault)) && !h.device.isConnected)
        h.connect()
        #expect(try h.state().slot(1)?.pending == false, "the device never saw the mark")
    }

    @Test func dropInsteadOfAnsweringAStateWriteStillMarksTheImage() throws {
        let fault = SimFault.dropLink(.insteadOfAnswer, at: try point("request:state-write"))
        var h = try DeviceHarness.make(faults: [fault])
        try h.upload(image)
        #expect(try !mark(&h))
        #expect(h.log.contains(.dropLink(.fault)) && !h.device.isConnected)
        h.connect()
        #expect(try h.state().slot(1)?.pending == true, "the mark was carried out, only its answer was lost")
    }

    @Test func dropAfterAnsweringAResetAnswersThenDropsThenReboots() throws {
        let fault = SimFault.dropLink(.afterAnswer, at: try point("request:reset"))
        var h = try DeviceHarness.make(faults: [fault])
        _ = try h.call(OSResetRequest()).get()
        #expect(h.log.contains(.dropLink(.faultAfterReply)))
        h.runUntilIdle()
        #expect(h.device.boots.count == 1, "the reset was carried out")
    }

    @Test func dropInsteadOfAnsweringAResetStillResets() throws {
        let fault = SimFault.dropLink(.insteadOfAnswer, at: try point("request:reset"))
        var h = try DeviceHarness.make(faults: [fault])
        let sequence = h.nextSequence()
        try h.write(packet: try OSResetRequest().packet(sequence: sequence).encoded())
        #expect(h.awaitResponse(sequence: sequence) == nil)
        #expect(h.log.contains(.dropLink(.fault)))
        h.runUntilIdle()
        #expect(h.device.boots.count == 1)
    }

    @Test func dropBeforeAResetLeavesTheDeviceRunning() throws {
        let fault = SimFault.dropLink(.beforeHandling, at: try point("request:reset"))
        var h = try DeviceHarness.make(faults: [fault])
        try h.write(packet: try OSResetRequest().packet(sequence: h.nextSequence()).encoded())
        h.runUntilIdle()
        #expect(h.device.boots.isEmpty)
    }

    @Test func theNthRequestIsCountedAcrossAReset() throws {
        let fault = SimFault.dropLink(.insteadOfAnswer, at: try point("request:state-read:2"))
        var h = try DeviceHarness.make(faults: [fault])
        _ = try h.state()
        _ = try h.call(OSResetRequest()).get()
        h.runUntilIdle()
        h.connect()
        let sequence = h.nextSequence()
        try h.write(packet: try ImageStateReadRequest().packet(sequence: sequence).encoded())
        #expect(h.awaitResponse(sequence: sequence) == nil)
        #expect(fired(h) == [fault])
        h.connect()
        _ = try h.state() // the third is answered: each fault fires once
    }

    @Test func theLastUploadRequestIsTheOneThatEndsTheImage() throws {
        let fault = SimFault.dropLink(.insteadOfAnswer, at: try point("request:upload:last"))
        var h = try DeviceHarness.make(faults: [fault])
        let sha = try SimSamples.fileSHA(image)
        var offset = 0
        while true {
            var request = ImageUploadRequest(length: offset == 0 ? UInt64(image.count) : nil, offset: UInt64(offset),
                                             sha: offset == 0 ? sha : nil, data: [])
            let room = try #require(request.maximumDataCount(packetSize: 2475))
            request.data = Array(image[offset ..< min(image.count, offset + room)])
            let sequence = h.nextSequence()
            try h.write(packet: try request.packet(sequence: sequence).encoded())
            guard let frame = h.awaitResponse(sequence: sequence) else { break }
            offset = Int(try ImageUploadResponse.decodeResponse(try SMPPacket(frame: frame).body).get().offset)
        }
        #expect(offset < image.count && offset + 2475 > image.count, "only the last chunk went unanswered")
        #expect(h.device.server.uploadSession == nil, "the last chunk was written, which ends the session")
        h.connect()
        #expect(try h.state().slot(1)?.hash == hash)
    }

    @Test func requestPointsParseAndPrintBack() throws {
        let text = "drop@request:reset+drop-before@request:state-write:2+drop-after@request:upload:last"
        let options = try SimOptions.parse("sim:fault=" + text)
        #expect(options.faults.map(\.description) == text.split(separator: "+").map(String.init))
        #expect(options.canonicalText.hasSuffix(",fault=" + text))
        #expect(options.faults.allSatisfy { $0.trigger == nil })
    }

    @Test(arguments: ["drop@40%", "drop@request", "drop@request:bogus", "drop@request:reset:0", "drop@request:reset:last",
                      "drop-after@request:state-read:x", "disconnect@request:reset", "drop@request:reset:2:3"])
    func malformedRequestPointsAreRefused(fault: String) throws {
        #expect(throws: SimOptionsError.self) { try SimOptions.parse("sim:fault=" + fault) }
    }
}
