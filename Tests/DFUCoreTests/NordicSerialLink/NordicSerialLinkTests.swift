@testable import DFUCore
import Synchronization
import Testing
import Transport

/// `NordicSerialConnector` and `NordicSerialLink` against a scripted bootloader on a fake byte link:
/// the connect sequence, the frames each write becomes, and which answers reach the session.
@Suite(.timeLimit(.minutes(1))) struct NordicSerialLinkTests {
    final class Notes: Sendable {
        private let entries = Mutex<[NordicSerialLink.Note]>([])
        func add(_ note: NordicSerialLink.Note) { entries.withLock { $0.append(note) } }
        var all: [NordicSerialLink.Note] { entries.withLock { $0 } }
    }

    static let peer = PeerIdentity("serial:/dev/ttyFAKE")

    static func connect(_ bootloader: FakeSerialBootloader, notes: Notes = Notes(),
                        within timeout: Duration = .seconds(5)) async throws(LinkError) -> NordicSerialLink {
        let connector = NordicSerialConnector(wrapping: bootloader.connector, pingTimeout: .milliseconds(50)) { notes.add($0) }
        let link = try await connector.connect(to: peer, deadline: .now + timeout)
        guard let serial = link as? NordicSerialLink else { throw .backend("not a NordicSerialLink") }
        return serial
    }

    /// The next notification on `events`, or nil when the stream ends first.
    static func nextNotification(_ iterator: inout AsyncStream<LinkEvent>.Iterator) async -> [UInt8]? {
        while let event = await iterator.next() {
            if case .notification(let source, let bytes) = event.kind {
                #expect(source == NordicDFUService.controlPoint)
                return bytes
            }
            return nil
        }
        return nil
    }

    @Test func theConnectorPingsUntilAnsweredThenAsksTheMTU() async throws {
        let bootloader = FakeSerialBootloader(respond: FakeSerialBootloader.standard(ignoringPings: 2))
        let link = try await Self.connect(bootloader)
        #expect(bootloader.frames == [[0x09, 1], [0x09, 2], [0x09, 3], [0x07]])
        #expect(link.mtu == 131)
        #expect(link.payload == 64)
        #expect(link.parameters.attMTU == 67)
        #expect(link.parameters.maxWriteWithoutResponse == 64)
        #expect(link.parameters.isConnectionless)
        #expect(link.parameters.writesAreWholeMessages)
        #expect(NordicGATT.isBootloader(link.services))
        // The transfer core's packets fill one Write Object each.
        #expect(NordicTransferConfiguration.packetSize(attMTU: link.parameters.attMTU) == 64)
    }

    @Test func theUSBTransportsMTUGivesKilobyteWrites() async throws {
        let link = try await Self.connect(FakeSerialBootloader(respond: FakeSerialBootloader.standard(mtu: NordicSerialLimits.usbMTU)))
        #expect(link.payload == 1024)
        #expect(NordicTransferConfiguration.packetSize(attMTU: link.parameters.attMTU) == 1024)
    }

    /// The line's ceiling less the framing: an opcode and END per 64 bytes, and the escapes random
    /// data needs.
    @Test func theCeilingCountsTheFraming() async throws {
        let link = try await Self.connect(FakeSerialBootloader(ceiling: 11_520))
        let ceiling = try #require(link.parameters.writeCommandCeiling)
        #expect(ceiling > 11_520 * 0.95 && ceiling < 11_520 * 64 / 66)
    }

    /// An answer to another ping (a late one) is not this ping's: it is noted and pinging goes on.
    @Test func anAnswerWithAnotherPingsIDIsNotTaken() async throws {
        let bootloader = FakeSerialBootloader { frame, index in
            guard case .ping(let id)? = NordicSerialRequest(decoding: frame) else {
                return frame == [0x07] ? [NordicSerialResponse.mtu(131).encoded] : []
            }
            return [NordicSerialResponse.ping(id: index == 0 ? id &+ 7 : id).encoded]
        }
        let notes = Notes()
        _ = try await Self.connect(bootloader, notes: notes)
        #expect(bootloader.frames.prefix(2) == [[0x09, 1], [0x09, 2]])
        #expect(notes.all == [.unexpected("Ping: 8")])
    }

    /// A bootloader that refuses ping is still there (nrfutil's rule).
    @Test func aRefusedPingStillShowsTheBootloaderIsThere() async throws {
        let bootloader = FakeSerialBootloader { frame, _ in
            frame == [0x07] ? [NordicSerialResponse.mtu(131).encoded] : [[0x60, 0x09, 0x02]]
        }
        _ = try await Self.connect(bootloader)
        #expect(bootloader.frames == [[0x09, 1], [0x07]])
    }

    @Test func aSilentPortIsNoDeviceAndItsLinkIsClosed() async throws {
        let bootloader = FakeSerialBootloader { _, _ in [] }
        do {
            _ = try await Self.connect(bootloader, within: .milliseconds(300))
            Issue.record("connected to a silent port")
        } catch {
            guard case .unavailable(let message) = error else { throw error }
            #expect(message.contains("nothing answered Nordic DFU pings"))
        }
        // Only pings went out (how many depends on the machine's pace; repeating them is
        // `theConnectorPingsUntilAnsweredThenAsksTheMTU`'s).
        #expect(!bootloader.frames.isEmpty && bootloader.frames.allSatisfy { $0.first == 0x09 }, "\(bootloader.frames)")
        #expect(!bootloader.isOpen)
    }

    @Test func anMTUTooSmallForAPacketIsRefused() async throws {
        do {
            _ = try await Self.connect(FakeSerialBootloader(respond: FakeSerialBootloader.standard(mtu: 41)))
            Issue.record("took an MTU of 41")
        } catch {
            guard case .unavailable(let message) = error else { throw error }
            #expect(message.contains("MTU of 41 bytes"))
        }
        // 43 carries exactly 20.
        let link = try await Self.connect(FakeSerialBootloader(respond: FakeSerialBootloader.standard(mtu: 43)))
        #expect(link.payload == 20)
    }

    @Test func aRefusedMTUIsAnError() async throws {
        let bootloader = FakeSerialBootloader { frame, _ in
            frame == [0x07] ? [[0x60, 0x07, 0x02]] : [NordicSerialResponse.ping(id: frame.last ?? 0).encoded]
        }
        do {
            _ = try await Self.connect(bootloader)
            Issue.record("connected without an MTU")
        } catch {
            guard case .unavailable(let message) = error else { throw error }
            #expect(message.contains("refused Get MTU"))
        }
    }

    @Test func aControlPointRequestIsOneSLIPFrame() async throws {
        let bootloader = FakeSerialBootloader()
        let link = try await Self.connect(bootloader)
        let before = bootloader.written.count
        try await link.write(NordicRequest.select(.data).encoded, to: NordicDFUService.controlPoint)
        // Create of 0xC0 bytes: the size's END byte is escaped.
        try await link.write(NordicRequest.create(.data, size: 0xC0).encoded, to: NordicDFUService.controlPoint)
        #expect(Array(bootloader.written.dropFirst(before)) == [0x06, 0x02, 0xC0, 0x01, 0x02, 0xDB, 0xDC, 0x00, 0x00, 0x00, 0xC0])
    }

    /// A Packet write is Write Objects of at most the MTU's payload, as nrfutil slices objects.
    @Test func aPacketWriteBecomesWriteObjectsOfTheMTUsPayload() async throws {
        let bootloader = FakeSerialBootloader()
        let link = try await Self.connect(bootloader)
        let data = (0 ..< 150).map { UInt8(truncatingIfNeeded: $0 * 7) }
        try await link.writeWithoutResponse(data, to: NordicDFUService.packet)
        let objects = Array(bootloader.frames.dropFirst(2))
        #expect(objects.map(\.count) == [65, 65, 23])
        #expect(objects.allSatisfy { $0.first == 0x08 })
        #expect(objects.flatMap { $0.dropFirst() } == data)
        // And nothing is written for nothing.
        let count = bootloader.written.count
        try await link.writeWithoutResponse([], to: NordicDFUService.packet)
        #expect(bootloader.written.count == count)
    }

    /// A frame longer than the byte link's writes goes out in pieces, in order.
    @Test func aFrameLongerThanTheByteLinksWritesGoesInPieces() async throws {
        let bootloader = FakeSerialBootloader(maxWrite: 16)
        let link = try await Self.connect(bootloader)
        let data = [UInt8](repeating: 0xC0, count: 40)
        try await link.writeWithoutResponse(data, to: NordicDFUService.packet)
        #expect(bootloader.writes.allSatisfy { $0.count <= 16 })
        #expect(bootloader.frames.last == [0x08] + data)
    }

    @Test func writesTheBootloaderFaceDoesNotAllowAreRefused() async throws {
        let link = try await Self.connect(FakeSerialBootloader())
        await #expect(throws: LinkError.notSupported(NordicDFUService.controlPoint, missing: .writeWithoutResponse)) {
            try await link.writeWithoutResponse([0x03], to: NordicDFUService.controlPoint)
        }
        await #expect(throws: LinkError.notSupported(NordicDFUService.packet, missing: .write)) {
            try await link.write([0x00], to: NordicDFUService.packet)
        }
        await #expect(throws: LinkError.characteristicNotFound(NordicDFUService.buttonlessWithBonds)) {
            try await link.write([0x01], to: NordicDFUService.buttonlessWithBonds)
        }
    }

    /// Control Point answers and packet receipts arrive as notifications with their BLE bytes; the
    /// link's own answers and noise do not, however the line splits them.
    @Test func onlyControlPointAnswersArriveAsNotifications() async throws {
        let bootloader = FakeSerialBootloader()
        let notes = Notes()
        let link = try await Self.connect(bootloader, notes: notes)
        var events = link.events.makeAsyncIterator()
        // Answers come once the session has asked something (before, they are an earlier run's).
        try await link.write(NordicRequest.select(.data).encoded, to: NordicDFUService.controlPoint)
        let receipt = NordicResponse(opcode: .calculateChecksum,
                                     outcome: .success(.checksum(NordicChecksum(offset: 0xC0, crc: 0xDBC0_0001)))).encoded
        let select: [UInt8] = [0x60, 0x06, 0x01] + [UInt8](repeating: 0, count: 12)
        var line: [UInt8] = []
        line += SLIPEncoder.encode(NordicSerialResponse.ping(id: 99).encoded)
        line += SLIPEncoder.encode([0x41, 0x42, 0x43])
        line += SLIPEncoder.encode(receipt)
        line += SLIPEncoder.encode([0x60, 0x42, 0x01])
        line += SLIPEncoder.encode(select)
        for byte in line { bootloader.send([byte]) }
        #expect(await Self.nextNotification(&events) == receipt)
        #expect(await Self.nextNotification(&events) == select)
        #expect(notes.all.count == 3, "\(notes.all)")
        #expect(notes.all.first == .unexpected("Ping: 99"))
    }

    /// A `dfu` killed mid-object leaves requests the bootloader has not read yet (the object's
    /// last Write Objects, its Calculate Checksum, its Execute); their answers can reach the next
    /// run's port after it opened and flushed it, before the answer to its first ping. They answer
    /// nothing this link asked, so they never reach the session, which would take them for the
    /// answers to its first requests (docs/faults.md, finding 14).
    @Test func answersToAnEarlierRunsRequestsDoNotReachTheSession() async throws {
        let checksum = NordicResponse(opcode: .calculateChecksum,
                                      outcome: .success(.checksum(NordicChecksum(offset: 0x1000, crc: 0x1234_5678)))).encoded
        let execute: [UInt8] = [0x60, 0x04, 0x01]
        let select: [UInt8] = [0x60, 0x06, 0x01] + [UInt8](repeating: 0, count: 12)
        let bootloader = FakeSerialBootloader { frame, index in
            switch NordicSerialRequest(decoding: frame) {
            case .ping(let id)?:
                // The killed run's answers come first: the bootloader reads and answers in order.
                return (index == 0 ? [checksum, execute] : []) + [NordicSerialResponse.ping(id: id).encoded]
            case .getMTU?: return [NordicSerialResponse.mtu(131).encoded]
            case .controlPoint(.select)?: return [select]
            default: return []
            }
        }
        let notes = Notes()
        let link = try await Self.connect(bootloader, notes: notes)
        var events = link.events.makeAsyncIterator()
        try await link.subscribe(NordicDFUService.controlPoint)
        try await link.write(NordicRequest.select(.data).encoded, to: NordicDFUService.controlPoint)
        #expect(await Self.nextNotification(&events) == select)
        #expect(notes.all.count == 2 && notes.all.allSatisfy { if case .dropped(let why) = $0 { why.contains("earlier run") } else { false } },
                "\(notes.all)")
    }

    @Test func thePortGoingAwayEndsTheLinkAndItsPings() async throws {
        let bootloader = FakeSerialBootloader()
        let link = try await Self.connect(bootloader)
        var events = link.events.makeAsyncIterator()
        bootloader.vanish()
        let event = await events.next()
        #expect(event?.kind == .disconnected(.other("the serial port went away")))
        #expect(event?.generation == link.parameters.generation)
        #expect(await events.next() == nil)
        #expect(await link.ping(timeout: .seconds(1)) == .gone)
    }

    @Test func aPingIsTheProbe() async throws {
        let answering = Mutex(true)
        let bootloader = FakeSerialBootloader { frame, _ in
            switch NordicSerialRequest(decoding: frame) {
            case .ping(let id)?: return answering.withLock { $0 } ? [NordicSerialResponse.ping(id: id).encoded] : []
            case .getMTU?: return [NordicSerialResponse.mtu(131).encoded]
            default: return []
            }
        }
        let link = try await Self.connect(bootloader)
        #expect(await link.ping(timeout: .seconds(1)) == .answered)
        answering.withLock { $0 = false }
        #expect(await link.ping(timeout: .milliseconds(50)) == .silent)
    }

    /// A serial port is one device: a second peer (a Bluetooth name a journal kept) is never tried.
    @Test func onlyThePortIsConnectedToAmongSeveralPeers() async throws {
        let connector = NordicSerialConnector(wrapping: FakeSerialBootloader().connector)
        let (peer, link) = try await connector.connect(toAnyOf: [Self.peer, PeerIdentity("name:DfuTarg")], deadline: .now + .seconds(5))
        #expect(peer == Self.peer)
        #expect(link is NordicSerialLink)
    }
}
