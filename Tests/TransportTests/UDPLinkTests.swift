import Testing
import Transport
import UDPTransport

@Suite(.timeLimit(.minutes(1))) struct UDPLinkTests {
    typealias Support = UDPTestSupport
    let smp = DatagramGATTFace.test.characteristic

    @Test func echoesDatagramsBothWaysInOrder() async throws {
        let server = try UDPEchoServer()
        let link = try UDPLink.connect(to: server.address, presenting: .test, generation: LinkGeneration(7))
        let sent = (0..<200).map { Support.numbered($0, size: 20 + $0) }
        let received = Task { try await Support.events(of: link, notifications: sent.count) }
        for payload in sent { try await link.writeWithoutResponse(payload, to: smp) }

        let events = try await received.value
        #expect(Support.payloads(events) == sent)
        #expect(events.allSatisfy { $0.generation == LinkGeneration(7) })
        #expect(events.allSatisfy { if case .notification(let id, _) = $0.kind { id == smp } else { false } })
        await link.disconnect()
    }

    @Test func carriesAFullSizeDatagramIntact() async throws {
        let server = try UDPEchoServer()
        let link = try UDPLink.connect(to: server.address, presenting: .test)
        #expect(link.parameters.maxWriteWithoutResponse == 1472)
        let payload = Support.numbered(1, size: 1472)
        let received = Task { try await Support.events(of: link, notifications: 1) }
        try await link.writeWithoutResponse(payload, to: smp)
        #expect(Support.payloads(try await received.value) == [payload])
        await link.disconnect()
    }

    @Test func refusesAWriteAboveTheDatagramLimit() async throws {
        let server = try UDPEchoServer()
        let link = try UDPLink.connect(to: server.address, presenting: .test)
        await #expect(throws: LinkError.payloadTooLarge(size: 1473, limit: 1472)) {
            try await link.writeWithoutResponse([UInt8](repeating: 0, count: 1473), to: smp)
        }
        let small = try UDPLink.connect(to: server.address, presenting: .test, maxDatagramSize: 512)
        #expect(small.parameters.attMTU == 515)
        await #expect(throws: LinkError.payloadTooLarge(size: 513, limit: 512)) {
            try await small.writeWithoutResponse([UInt8](repeating: 0, count: 513), to: smp)
        }
        await link.disconnect()
        await small.disconnect()
    }

    @Test func endsTheLinkWhenNothingListensAfterTheFirstWrite() async throws {
        let nobody = try await Support.unusedPort()
        let link = try UDPLink.connect(to: nobody, presenting: .test)
        // UDP sends without asking; the host's ICMP port-unreachable comes back after the datagram.
        try await link.writeWithoutResponse([0x01, 0x02], to: smp)

        let events = try await Support.events(of: link)
        let reason = try #require(events.last.flatMap { event -> DisconnectReason? in
            if case .disconnected(let reason) = event.kind { return reason }
            return nil
        })
        #expect(events.count == 1)
        #expect(reason.description.contains("nothing listens at \(nobody)"))
        await #expect(throws: LinkError.disconnected(reason)) {
            try await link.writeWithoutResponse([0x03], to: smp)
        }
    }

    @Test func disconnectEndsTheStreamAndLaterCallsFail() async throws {
        let server = try UDPEchoServer()
        let link = try UDPLink.connect(to: server.address, presenting: .test)
        await link.disconnect()
        await link.disconnect()  // a second call does nothing

        let events = try await Support.events(of: link)
        #expect(events.map(\.kind) == [.disconnected(.localHostTerminated)])
        await #expect(throws: LinkError.disconnected(.localHostTerminated)) {
            try await link.writeWithoutResponse([1], to: smp)
        }
        await #expect(throws: LinkError.disconnected(.localHostTerminated)) { try await link.subscribe(smp) }
    }

    @Test func presentsItsFaceAndNothingElse() async throws {
        let server = try UDPEchoServer()
        let link = try UDPLink.connect(to: server.address, presenting: .test)
        let battery = CharacteristicID(short: 0x2A19)
        #expect(link.services == [GATTService(ServiceID(short: 0xFFF0), characteristics: [
            GATTCharacteristic(CharacteristicID(short: 0xFFF1), properties: [.writeWithoutResponse, .notify]),
        ])])

        try await link.subscribe(smp)
        await #expect(throws: LinkError.notSupported(smp, missing: .read)) { _ = try await link.read(smp) }
        await #expect(throws: LinkError.notSupported(smp, missing: .write)) { try await link.write([1], to: smp) }
        await #expect(throws: LinkError.characteristicNotFound(battery)) { _ = try await link.read(battery) }
        await #expect(throws: LinkError.characteristicNotFound(battery)) { try await link.subscribe(battery) }
        await #expect(throws: LinkError.characteristicNotFound(battery)) {
            try await link.writeWithoutResponse([1], to: battery)
        }
        await link.disconnect()
    }

    @Test func reportsDatagramFactsInsteadOfRadioFacts() async throws {
        let server = try UDPEchoServer()
        let link = try UDPLink.connect(to: server.address, presenting: .test)
        let parameters = link.parameters
        #expect(parameters.writesAreWholeMessages)
        #expect(parameters.isConnectionless)
        #expect(parameters.attMTU == 1475)
        #expect(parameters.phy == nil && parameters.connectionInterval == nil && parameters.llPayload == nil)
        #expect(parameters.peer == PeerIdentity(server.address.description))
        #expect(link.remoteAddress == server.address)
        await link.disconnect()
    }

    @Test func cancelledWriterSendsNothing() async throws {
        let server = try UDPEchoServer()
        let link = try UDPLink.connect(to: server.address, presenting: .test)
        let smp = smp
        let outcome = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            do throws(LinkError) {
                try await link.writeWithoutResponse([9], to: smp)
                return LinkError?.none
            } catch {
                return error
            }
        }.value
        #expect(outcome == .cancelled)

        // The next write is the first the server sees.
        let received = Task { try await Support.events(of: link, notifications: 1) }
        try await link.writeWithoutResponse([10], to: smp)
        #expect(Support.payloads(try await received.value) == [[10]])
        await link.disconnect()
    }

    @Test(.enabled(if: UDPTestSupport.hasIPv6Loopback, "this machine has no IPv6 loopback (::1); skipped"))
    func carriesDatagramsOverIPv6Loopback() async throws {
        let server = try UDPEchoServer(at: .loopbackV6(port: 0))
        #expect(server.address.description.hasPrefix("[::1]:"))
        let link = try UDPLink.connect(to: server.address, presenting: .test)
        let received = Task { try await Support.events(of: link, notifications: 2) }
        try await link.writeWithoutResponse([1, 2, 3], to: smp)
        try await link.writeWithoutResponse(Support.numbered(2, size: 1472), to: smp)
        #expect(Support.payloads(try await received.value) == [[1, 2, 3], Support.numbered(2, size: 1472)])
        await link.disconnect()
    }
}
