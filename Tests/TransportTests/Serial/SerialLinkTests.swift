import Testing
import SerialTransport
import Transport

/// `SerialLink` on a pseudo-terminal: the bytes both ways, the facts it reports, and its ends.
@Suite(.timeLimit(.minutes(2))) struct SerialLinkTests {
    typealias Support = SerialTestSupport
    let port = DatagramGATTFace.test.characteristic

    @Test func carriesBytesBothWaysInOrder() async throws {
        let pty = try PseudoTerminal.open()
        let link = try SerialLink.open(pty.devicePath, presenting: .test, generation: LinkGeneration(3))

        let toDevice = Support.pattern(10_000)
        let heard = Task { try await Support.bytes(of: pty, count: toDevice.count) }
        for start in stride(from: 0, to: toDevice.count, by: 1000) {
            try await link.writeWithoutResponse(Array(toDevice[start..<start + 1000]), to: port)
        }
        #expect(try await heard.value == toDevice)

        let toHost = Support.pattern(7000, seed: 5)
        let received = Task { try await Support.bytes(of: link, count: toHost.count) }
        try await pty.write(toHost)
        #expect(try await received.value == toHost)

        await link.disconnect()
        await pty.close()
    }

    @Test func stampsEveryNotificationWithItsGenerationAndCharacteristic() async throws {
        let pty = try PseudoTerminal.open()
        let link = try SerialLink.open(pty.devicePath, presenting: .test, generation: LinkGeneration(9))
        try await pty.write([1, 2, 3])
        var seen: [LinkEvent] = []
        for await event in link.events {
            seen.append(event)
            if case .notification(_, let bytes) = event.kind, bytes.last == 3 { break }
        }
        #expect(seen.allSatisfy { $0.generation == LinkGeneration(9) })
        #expect(seen.allSatisfy { if case .notification(let id, _) = $0.kind { id == port } else { false } })
        await link.disconnect()
        await pty.close()
    }

    @Test func reportsTheLineAsAStreamWithItsCeiling() async throws {
        let pty = try PseudoTerminal.open()
        let settings = try SerialPortSettings(baud: 1_000_000)
        let link = try SerialLink.open(pty.devicePath, presenting: .test, settings: settings, maxWriteSize: 600)
        #expect(link.parameters.peer == PeerIdentity("serial:\(pty.devicePath)"))
        #expect(link.parameters.maxWriteWithoutResponse == 600)
        #expect(link.parameters.attMTU == 603)
        #expect(link.parameters.writeCommandCeiling == 100_000)
        #expect(!link.parameters.writesAreWholeMessages)
        #expect(link.parameters.isConnectionless)
        #expect(link.services == DatagramGATTFace.test.services)
        #expect(link.path == pty.devicePath)
        let other = try PseudoTerminal.open()
        let standard = try SerialLink.open(other.devicePath, presenting: .test)
        #expect(standard.parameters.maxWriteWithoutResponse == SerialLink.defaultMaxWriteSize)
        #expect(standard.parameters.writeCommandCeiling == 11_520)
        await link.disconnect()
        await standard.disconnect()
        await pty.close()
        await other.close()
    }

    @Test func refusesWhatASerialLineCannotDo() async throws {
        let pty = try PseudoTerminal.open()
        let link = try SerialLink.open(pty.devicePath, presenting: .test, maxWriteSize: 16)
        try await link.subscribe(port)
        await #expect(throws: LinkError.payloadTooLarge(size: 17, limit: 16)) {
            try await link.writeWithoutResponse([UInt8](repeating: 0, count: 17), to: port)
        }
        await #expect(throws: LinkError.notSupported(port, missing: .write)) { try await link.write([1], to: port) }
        await #expect(throws: LinkError.notSupported(port, missing: .read)) { _ = try await link.read(port) }
        let other = CharacteristicID(short: 0xABCD)
        await #expect(throws: LinkError.characteristicNotFound(other)) { try await link.writeWithoutResponse([1], to: other) }
        await link.disconnect()
        await pty.close()
    }

    @Test func disconnectEndsTheEventsAndFreesThePort() async throws {
        let pty = try PseudoTerminal.open()
        let link = try SerialLink.open(pty.devicePath, presenting: .test)
        await link.disconnect()
        await link.disconnect()  // a second call does nothing
        #expect(try await Support.disconnectReason(of: link) == .localHostTerminated)
        await #expect(throws: LinkError.disconnected(.localHostTerminated)) { try await link.writeWithoutResponse([1], to: port) }
        await #expect(throws: LinkError.disconnected(.localHostTerminated)) { try await link.subscribe(port) }

        // Free at once for the next opener, as root and as anyone else (TIOCEXCL undone, lock gone).
        let again = try SerialLink.open(pty.devicePath, presenting: .test)
        await again.disconnect()
        await pty.close()
    }

    @Test func thePortVanishingEndsTheLinkWithTheWentAwayReason() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let path = "\(scratch.path)/ttyACM0"
        let pty = try PseudoTerminal.open(linkedAt: path)
        let link = try SerialLink.open(path, presenting: .test)
        await pty.close()

        let reason = try #require(try await Support.disconnectReason(of: link))
        #expect(reason.description.hasPrefix("the serial port \(path) went away"))
        await #expect(throws: LinkError.disconnected(reason)) { try await link.writeWithoutResponse([1], to: port) }
        await link.disconnect()
    }
}
