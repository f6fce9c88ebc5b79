import DFUCore
import DeviceSim
import Testing

/// The reply faults `reorder@` and `truncate@`, the battery that falls (`battery@`), and resets at
/// a request (`reboot-before@`, `reboot@`, `reboot-after@request:…`): each fires once, where it says.
@Suite struct ReplyAndActivationFaultTests {
    let image: [UInt8]
    let sha: [UInt8]
    let hash: [UInt8]

    init() throws {
        image = try SimSamples.blinky("1.1.0")
        sha = try SimSamples.fileSHA(image)
        hash = try SimSamples.slotHash(image)
    }

    private func fired(_ h: DeviceHarness) -> [SimFault] {
        h.log.compactMap { if case .faultInjected(let fault) = $0 { fault } else { nil } }
    }

    /// The upload's first two requests, written back to back (two in flight); their sequences.
    private func twoChunks(_ h: inout DeviceHarness) throws -> (first: UInt8, second: UInt8) {
        var first = ImageUploadRequest(length: UInt64(image.count), offset: 0, sha: sha, data: [])
        let room = try #require(first.maximumDataCount(packetSize: 2475))
        first.data = Array(image.prefix(room))
        let second = ImageUploadRequest(offset: UInt64(room), data: Array(image[room ..< room + 1000]))
        let (a, b) = (h.nextSequence(), h.nextSequence())
        try h.write(packet: try first.packet(sequence: a).encoded())
        try h.write(packet: try second.packet(sequence: b).encoded())
        h.runUntilIdle()
        return (a, b)
    }

    @Test func reorderSendsTheReplyAfterTheNextOne() throws {
        var h = try DeviceHarness.make(faults: [.reorder(at: .bytes(0))])
        let (first, second) = try twoChunks(&h)
        #expect(h.responses.map(\.header.sequence) == [second, first], "the two replies swapped")
        #expect(fired(h) == [.reorder(at: .bytes(0))])
        #expect(h.log.contains { if case .notify(_, _, .reordered) = $0 { true } else { false } })
        #expect(h.frameErrors.isEmpty)
    }

    @Test func aReplyHeldBackIsLostWithItsLink() throws {
        var h = try DeviceHarness.make(faults: [.reorder(at: .bytes(0))])
        var first = ImageUploadRequest(length: UInt64(image.count), offset: 0, sha: sha, data: [])
        first.data = Array(image.prefix(1000))
        try h.write(packet: try first.packet(sequence: h.nextSequence()).encoded())
        h.runUntilIdle()
        #expect(h.responses.isEmpty)
        h.disconnect()
        h.connect()
        _ = try h.state()
        #expect(h.responses.count == 1, "only the image list's answer: the held reply went with the old link")
    }

    @Test func truncateCutsTheReplyShortOfItsHeadersLength() throws {
        var h = try DeviceHarness.make(faults: [.truncate(at: .bytes(0), bytes: 3)])
        let (first, _) = try twoChunks(&h)
        let notified = h.log.compactMap { if case .notify(let bytes, _, .truncated) = $0 { bytes } else { nil } }
        let cut = try #require(notified.first)
        let header = try SMPHeader(decoding: cut)
        #expect(header.sequence == first)
        #expect(cut.count == SMPHeader.size + Int(header.length) - 3, "three bytes short of what the header announces")
        #expect(!h.frameErrors.isEmpty, "the next reply overruns the frame a client was collecting")
    }

    @Test func aCutLargerThanTheBodyLeavesTheHeader() throws {
        var h = try DeviceHarness.make(faults: [.truncate(at: .bytes(0), bytes: 60_000)])
        _ = try twoChunks(&h)
        let notified = h.log.compactMap { if case .notify(let bytes, _, .truncated) = $0 { bytes } else { nil } }
        #expect(notified.first?.count == SMPHeader.size)
    }

    @Test func batteryFallsOnceTheChunkIsWritten() throws {
        var h = try DeviceHarness.make(faults: [.battery(at: .percent(50), level: 12)])
        #expect(h.device.read(DeviceGATT.batteryLevel) == [80])
        try h.upload(image, stopAt: image.count / 4)
        #expect(h.device.batteryLevel == 80)
        try h.upload(image)
        #expect(h.device.read(DeviceGATT.batteryLevel) == [12])
        #expect(fired(h) == [.battery(at: .percent(50), level: 12)])
    }

    private func mark(_ h: inout DeviceHarness) throws -> Bool {
        let sequence = h.nextSequence()
        try h.write(packet: try ImageStateWriteRequest(hash: hash, confirm: false).packet(sequence: sequence).encoded())
        return h.awaitResponse(sequence: sequence) != nil
    }

    private func point(_ text: String) throws -> SMPRequestPoint {
        let options = try SimOptions.parse("sim:fault=reboot@" + text)
        guard case .rebootAtRequest(_, let point)? = options.faults.first else { throw PointError() }
        return point
    }

    private struct PointError: Error {}

    @Test func rebootBeforeTheMarkLosesItAndBootsTheOldImage() throws {
        var h = try DeviceHarness.make(faults: [.rebootAtRequest(.beforeHandling, at: try point("request:state-write"))])
        try h.upload(image)
        #expect(try !mark(&h))
        #expect(h.log.contains(.dropLink(.reboot)))
        h.runUntilIdle()
        h.connect()
        #expect(h.device.boots.count == 1)
        #expect(try h.state().slot(0)?.hash != hash)
        #expect(try h.state().slot(1)?.pending == false, "the device never carried the mark out")
    }

    @Test func rebootInsteadOfAnsweringTheMarkBootsTheNewImageOnTest() throws {
        var h = try DeviceHarness.make(faults: [.rebootAtRequest(.insteadOfAnswer, at: try point("request:state-write"))])
        try h.upload(image)
        #expect(try !mark(&h))
        h.runUntilIdle()
        h.connect()
        let running = try #require(try h.state().slot(0))
        #expect(running.hash == hash && running.active && !running.confirmed, "MCUboot swapped: the image runs on test")
    }

    @Test func rebootAfterAnsweringTheMarkAnswersFirst() throws {
        var h = try DeviceHarness.make(faults: [.rebootAtRequest(.afterAnswer, at: try point("request:state-write"))])
        try h.upload(image)
        #expect(try mark(&h))
        #expect(h.log.contains(.dropLink(.reboot)))
        h.runUntilIdle()
        h.connect()
        #expect(try h.state().slot(0)?.hash == hash)
    }

    @Test func rebootAtTheResetRequestResetsAtOnceWithoutAnswering() throws {
        var h = try DeviceHarness.make(faults: [.rebootAtRequest(.insteadOfAnswer, at: try point("request:reset"))])
        let sequence = h.nextSequence()
        try h.write(packet: try OSResetRequest().packet(sequence: sequence).encoded())
        #expect(h.awaitResponse(sequence: sequence) == nil)
        #expect(h.device.boots.count == 1)
    }
}
