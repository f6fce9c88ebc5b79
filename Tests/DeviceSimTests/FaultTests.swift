import DFUCore
import DeviceSim
import Testing

/// Faults as seeded inputs: each fires once, where its trigger says, and nothing else changes.
@Suite struct FaultTests {
    let image: [UInt8]
    let sha: [UInt8]

    init() throws {
        image = try SimSamples.blinky("1.1.0")
        sha = try SimSamples.fileSHA(image)
    }

    private func fired(_ h: DeviceHarness) -> [SimFault] {
        h.log.compactMap { if case .faultInjected(let fault) = $0 { fault } else { nil } }
    }

    /// Sends chunk after chunk until the device stops answering; returns the last acknowledged offset.
    private func uploadUntilSilent(_ h: inout DeviceHarness) throws -> Int {
        var offset = 0
        while offset < image.count {
            var request = ImageUploadRequest(length: offset == 0 ? UInt64(image.count) : nil,
                                             offset: UInt64(offset), sha: offset == 0 ? sha : nil, data: [])
            let room = try #require(request.maximumDataCount(packetSize: 2475))
            request.data = Array(image[offset ..< min(image.count, offset + room)])
            let sequence = h.nextSequence()
            try h.write(packet: try request.packet(sequence: sequence).encoded())
            guard let frame = h.awaitResponse(sequence: sequence) else { return offset }
            offset = Int(try ImageUploadResponse.decodeResponse(try SMPPacket(frame: frame).body).get().offset)
        }
        return offset
    }

    @Test func disconnectFaultDropsTheLinkAndTheDeviceKeepsItsSession() throws {
        var h = try DeviceHarness.make(faults: [.disconnect(at: .percent(40))])
        let acknowledged = try uploadUntilSilent(&h)
        #expect(fired(h) == [.disconnect(at: .percent(40))])
        #expect(h.log.contains(.dropLink(.fault)))
        #expect(!h.device.isConnected)
        let session = try #require(h.device.server.uploadSession)
        #expect(Double(session.offset) >= 0.4 * Double(image.count))
        #expect(session.offset > acknowledged)     // the chunk that crossed 40 % was written, its reply lost

        // Reconnect and resume: the off-0 packet with the same sha answers the device's offset.
        h.connect()
        let resumed = try h.send(h.uploadPacket(["len": .unsigned(UInt64(image.count)), "off": 0,
                                                 "sha": .bytes(sha), "data": .bytes(Array(image.prefix(64)))]))
        let offset = try ImageUploadResponse.decodeResponse(try SMPPacket(frame: resumed).body).get().offset
        #expect(offset == UInt64(session.offset))
        // Finish from there; the image in the slot is exactly the file.
        var next = Int(offset)
        while next < image.count {
            let end = min(image.count, next + 2000)
            let reply = try h.call(ImageUploadRequest(offset: UInt64(next), data: Array(image[next ..< end]))).get()
            next = Int(reply.offset)
        }
        #expect(h.device.server.bootloader.secondary.read(0 ..< image.count).elementsEqual(image))
    }

    @Test func rebootFaultResetsTheDeviceAndLosesTheSession() throws {
        var h = try DeviceHarness.make(faults: [.reboot(at: .percent(60))])
        _ = try uploadUntilSilent(&h)
        #expect(fired(h) == [.reboot(at: .percent(60))])
        #expect(h.log.contains(.dropLink(.reboot)))
        #expect(h.device.server.uploadSession == nil)
        h.runUntilIdle()
        #expect(h.log.last == .online)
        h.connect()
        // The half-written slot is not a valid image, and the same sha now starts from 0.
        #expect(try h.state().slot(1) == nil)
        #expect(try h.upload(image) == image.count)
        #expect(h.device.boots.map(\.outcome) == [.normal])
    }

    @Test func faultTriggerCanBeAByteCount() throws {
        var h = try DeviceHarness.make(faults: [.disconnect(at: .bytes(10_000))])
        _ = try uploadUntilSilent(&h)
        let session = try #require(h.device.server.uploadSession)
        #expect(session.offset >= 10_000 && session.offset < 10_000 + 2475)
    }

    @Test func stallSwallowsExactlyOneReply() throws {
        var h = try DeviceHarness.make(faults: [.stall(at: .percent(50))])
        let stalledAt = try uploadUntilSilent(&h)
        #expect(stalledAt < image.count && h.device.isConnected)
        let session = try #require(h.device.server.uploadSession)
        // The client re-sends from what it knows; the device answers with where it really is.
        let reply = try h.call(ImageUploadRequest(offset: UInt64(stalledAt),
                                                  data: Array(image[stalledAt ..< stalledAt + 100]))).get()
        #expect(reply.offset == UInt64(session.offset))
    }

    @Test func corruptedReplyIsFlaggedAndNoLongerDecodes() throws {
        var h = try DeviceHarness.make(faults: [.corrupt(at: .bytes(1))])
        let sequence = h.nextSequence()
        try h.write(packet: try ImageUploadRequest(length: UInt64(image.count), offset: 0, sha: sha,
                                                   data: Array(image.prefix(1000))).packet(sequence: sequence).encoded())
        h.runUntilIdle()
        #expect(h.log.contains { if case .notify(_, _, .corrupted?) = $0 { true } else { false } })
        let frame = try #require(h.responses.first { $0.header.sequence == sequence })
        #expect(throws: SMPFrameError.self) { try SMPPacket(frame: frame) }
    }

    @Test func duplicatedReplyArrivesTwice() throws {
        var h = try DeviceHarness.make(faults: [.duplicate(at: .percent(0))])
        let sequence = h.nextSequence()
        try h.write(packet: try ImageUploadRequest(length: UInt64(image.count), offset: 0, sha: sha,
                                                   data: Array(image.prefix(1000))).packet(sequence: sequence).encoded())
        h.runUntilIdle()
        let copies = h.responses.filter { $0.header.sequence == sequence }
        #expect(copies.count == 2 && copies[0] == copies[1])
    }

    @Test func delayedReplyCarriesItsDelay() throws {
        var h = try DeviceHarness.make(faults: [.delay(at: .percent(0), by: .milliseconds(1500))])
        _ = try h.call(ImageUploadRequest(length: UInt64(image.count), offset: 0, sha: sha, data: Array(image.prefix(1000))))
        let delays = h.log.compactMap { if case .notify(_, let after, .delayed?) = $0 { after } else { nil } }
        #expect(!delays.isEmpty && delays.allSatisfy { $0 == .milliseconds(1500) })
    }

    @Test func faultsFireOnlyOnce() throws {
        var h = try DeviceHarness.make(faults: [.disconnect(at: .percent(10))])
        _ = try uploadUntilSilent(&h)
        h.connect()
        #expect(h.device.pendingFaults.isEmpty)
        // A whole second upload (a new session) goes through.
        _ = try h.call(ImageEraseRequest()).get()
        #expect(try h.upload(image) == image.count)
    }

    @Test func devicePowerCyclesOnResetAndIsUnreachableWhileBooting() throws {
        var h = try DeviceHarness.make(flash: .nRF52840)
        try h.upload(image)
        _ = try h.call(ImageStateWriteRequest(hash: try SimSamples.slotHash(image))).get()
        _ = try h.call(OSResetRequest()).get()
        let replyTime = h.now
        h.step()
        // The reboot comes 250 ms after the reply.
        #expect(replyTime.duration(to: h.now) == .milliseconds(250))
        guard case .rebooting(let until, let report)? = h.log.last(where: { if case .rebooting = $0 { true } else { false } }) else {
            Issue.record("no reboot")
            return
        }
        // 49 816 bytes → 13 sectors + trailer, moved three times, plus 300 ms start-up.
        let perSector = Duration.milliseconds(85) + FlashTiming.nRF52840.writeTime(bytes: 4096)
        #expect(report.duration == .milliseconds(300) + perSector * (3 * 14))
        #expect(h.now.duration(to: until) == report.duration)
        h.connect()
        #expect(!h.device.isConnected)
        h.runUntilIdle()
        #expect(h.now == until && h.log.last == .online)
        h.connect()
        #expect(h.device.isConnected)
    }
}
