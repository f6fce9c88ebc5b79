import DFUCore
import DeviceSim
import Testing

/// Zephyr's transport side: reassembly (smp_reassembly.c), one packet per write, UDP truncation,
/// the shared buffer pool and the one-at-a-time work queue (smp.c, smp_bt.c).
@Suite struct TransportModelTests {
    let image: [UInt8]

    init() throws {
        image = try SimSamples.blinky("1.1.0")
    }

    private func drops(_ h: DeviceHarness) -> [SMPDrop] {
        h.log.compactMap { if case .dropped(let drop) = $0 { drop } else { nil } }
    }

    private func echo(_ h: inout DeviceHarness, _ text: String = "ok") throws -> [UInt8] {
        try OSEchoRequest(text: text).packet(sequence: h.nextSequence()).encoded()
    }

    @Test func packetSpanningSeveralWritesIsReassembled() throws {
        var h = try DeviceHarness.make(writeSize: 20)
        #expect(try h.call(OSEchoRequest(text: String(repeating: "z", count: 300))).get().text.count == 300)
    }

    @Test func firstFragmentShorterThanTheHeaderIsDropped() throws {
        var h = try DeviceHarness.make()
        h.writeRaw([0x02, 0x00, 0x00])
        #expect(drops(h) == [.fragmentShorterThanHeader(size: 3)])
        #expect(try h.call(OSEchoRequest(text: "after")).get().text == "after")
    }

    @Test func packetAnnouncingMoreThanABufferIsDropped() throws {
        var h = try DeviceHarness.make(server: SMPServerConfiguration(bufferSize: 512))
        let big = try echo(&h, String(repeating: "a", count: 600))
        try h.write(packet: big)
        #expect(drops(h).first == .packetTooLarge(declared: big.count, limit: 512))
        #expect(h.responses.isEmpty)
    }

    @Test func writeRunningPastThePacketEndDropsTheWholePacket() throws {
        var h = try DeviceHarness.make()
        let first = try echo(&h, String(repeating: "a", count: 40))
        let second = try echo(&h, "b")
        // The tail of one packet and the head of the next in one write.
        h.writeRaw(Array(first.prefix(20)))
        h.writeRaw(Array(first.dropFirst(20)) + second.prefix(8))
        h.runUntilIdle()
        #expect(drops(h) == [.fragmentOverflow(expected: first.count, received: first.count + 8)])
        #expect(h.responses.isEmpty)
        #expect(h.device.server.buffersInUse == 0)
    }

    @Test func withoutReassemblyASplitPacketIsAnsweredCorrupt() throws {
        var h = try DeviceHarness.make(server: SMPServerConfiguration(framing: .onePacketPerWrite), writeSize: 20)
        let packet = try echo(&h, String(repeating: "q", count: 40))
        h.writeRaw(Array(packet.prefix(20)))
        let reply = try h.reply(to: packet[6])
        #expect(reply.body == ["rc": 9])
    }

    @Test func withoutReassemblyAWriteLargerThanABufferIsDropped() throws {
        var h = try DeviceHarness.make(server: SMPServerConfiguration(bufferSize: 128, framing: .onePacketPerWrite))
        h.writeRaw(try echo(&h, String(repeating: "w", count: 200)))
        #expect(drops(h).first == .writeTooLarge(size: 200 + 8 + 5, limit: 128))
    }

    @Test func oversizeDatagramIsCutAtTheBufferAndAnsweredCorrupt() throws {
        var h = try DeviceHarness.make(server: SMPServerConfiguration(bufferSize: 128, framing: .datagram))
        h.apply(h.device.handle(.connected(notificationSize: nil), now: h.now))
        let packet = try echo(&h, String(repeating: "u", count: 200))
        h.writeRaw(packet)
        #expect(try h.reply(to: packet[6]).body == ["rc": 9])
    }

    @Test func datagramRepliesAreOneNotificationEach() throws {
        var h = try DeviceHarness.make(writeSize: 20)
        h.apply(h.device.handle(.connected(notificationSize: nil), now: h.now))
        h.writeRaw(try echo(&h, String(repeating: "v", count: 100)))
        let notifications = h.log.filter { if case .notify = $0 { true } else { false } }
        #expect(notifications.count == 1)
    }

    /// Opens an upload session on a device with real flash timing and returns the next chunks as
    /// whole packets, so they can be written back to back.
    private func pipelinedChunks(_ h: inout DeviceHarness, count: Int) throws -> [[UInt8]] {
        let sha = try SimSamples.fileSHA(image)
        var offset = try h.upload(image, sha: sha, stopAt: 1)
        var packets: [[UInt8]] = []
        for _ in 0 ..< count {
            var request = ImageUploadRequest(offset: UInt64(offset), data: [])
            let room = try #require(request.maximumDataCount(packetSize: 2475))
            request.data = Array(image[offset ..< offset + room])
            packets.append(try request.packet(sequence: h.nextSequence()).encoded())
            offset += room
        }
        return packets
    }

    @Test func writeBeyondTheBufferCountIsDroppedSilently() throws {
        var h = try DeviceHarness.make(flash: .nRF52840, server: SMPServerConfiguration(bufferCount: 4))
        let chunks = try pipelinedChunks(&h, count: 4)
        for chunk in chunks { try h.write(packet: chunk) }
        // One request is being written to flash (its buffer plus a response buffer), two wait: the
        // fourth finds no buffer.
        #expect(drops(h).contains(.noFreeBuffer(writeSize: 495)))
        h.runUntilIdle()
        let answered = Set(h.responses.map(\.header.sequence))
        #expect(chunks.prefix(3).allSatisfy { answered.contains($0[6]) })
        #expect(!answered.contains(chunks[3][6]))
        #expect(h.device.server.buffersInUse == 0)
    }

    @Test func windowOfBufferCountMinusOneLosesNothing() throws {
        var h = try DeviceHarness.make(flash: .nRF52840, server: SMPServerConfiguration(bufferCount: 4))
        let chunks = try pipelinedChunks(&h, count: 3)
        for chunk in chunks { try h.write(packet: chunk) }
        h.runUntilIdle()
        #expect(drops(h).isEmpty)
        #expect(chunks.allSatisfy { chunk in h.responses.contains { $0.header.sequence == chunk[6] } })
    }

    @Test func requestsAreProcessedInOrderEachForItsFlashTime() throws {
        var h = try DeviceHarness.make(flash: .nRF52840)
        let chunks = try pipelinedChunks(&h, count: 3)
        let start = h.now
        for chunk in chunks { try h.write(packet: chunk) }
        var replyTimes: [Duration] = []
        while h.responses.count < 4, h.step() { replyTimes.append(start.duration(to: h.now)) }
        #expect(h.responses.suffix(3).map(\.header.sequence) == chunks.map { $0[6] })
        #expect(replyTimes.count == 3)
        var expected: Duration = .zero
        for (chunk, time) in zip(chunks, replyTimes) {
            let data = try ImageUploadRequest(body: try SMPPacket(decoding: chunk).body).data
            expected += FlashTiming.nRF52840.writeTime(bytes: data.count)
            #expect(time == expected)
        }
    }

    @Test func disconnectDiscardsQueuedRequestsButKeepsTheSession() throws {
        var h = try DeviceHarness.make(flash: .nRF52840)
        let chunks = try pipelinedChunks(&h, count: 3)
        for chunk in chunks { try h.write(packet: chunk) }
        h.disconnect()
        #expect(drops(h).contains(.discardedOnDisconnect(count: 2)))
        h.runUntilIdle()
        // The chunk in the flash write completes, its reply has nowhere to go.
        #expect(drops(h).contains(.responseLostOnDisconnect))
        #expect(h.device.server.uploadSession != nil)
        #expect(h.device.server.buffersInUse == 0)
    }

    @Test func disconnectDropsAHalfCollectedPacket() throws {
        var h = try DeviceHarness.make()
        h.writeRaw(Array(try echo(&h, String(repeating: "p", count: 100)).prefix(30)))
        #expect(h.device.server.buffersInUse == 1)
        h.disconnect()
        #expect(h.device.server.buffersInUse == 0)
    }
}
