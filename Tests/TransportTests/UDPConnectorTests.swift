import Testing
import Transport
import UDPTransport

@Suite(.timeLimit(.minutes(1))) struct UDPConnectorTests {
    typealias Support = UDPTestSupport
    /// Catches a hang only (see `UDPTestSupport.within`).
    static func soon() -> ContinuousClock.Instant { .now + .seconds(60) }

    @Test func generationIncrementsPerConnectAndStampsEvents() async throws {
        let server = try UDPEchoServer()
        let connector = UDPConnector(presenting: .test)
        #expect(connector.latestGeneration == LinkGeneration(0))
        let peer = PeerIdentity(server.address.description)

        let first = try await connector.connect(to: peer, deadline: Self.soon())
        #expect(first.parameters.generation == LinkGeneration(1))
        await first.disconnect()
        #expect(try await Support.events(of: first).map(\.generation) == [LinkGeneration(1)])

        let second = try await connector.connect(to: peer, deadline: Self.soon())
        #expect(second.parameters.generation == LinkGeneration(2))
        #expect(connector.latestGeneration == LinkGeneration(2))
        let received = Task { try await Support.events(of: second, notifications: 1) }
        try await second.writeWithoutResponse([42], to: DatagramGATTFace.test.characteristic)
        #expect(try await received.value.map(\.generation) == [LinkGeneration(2)])
        await second.disconnect()
    }

    @Test func acceptsTheUdpPrefixAndKeepsThePeerAsGiven() async throws {
        let server = try UDPEchoServer()
        let peer = PeerIdentity("udp:\(server.address)")
        let link = try await UDPConnector(presenting: .test, maxDatagramSize: 600).connect(to: peer, deadline: Self.soon())
        #expect(link.parameters.peer == peer)
        #expect(link.parameters.maxWriteWithoutResponse == 600)
        #expect(link.parameters.writesAreWholeMessages)
        await link.disconnect()
    }

    @Test func refusesAPeerThatIsNotHostAndPort() async throws {
        let connector = UDPConnector(presenting: .test)
        for text in ["AA:BB:CC:DD:EE:FF", "127.0.0.1", "127.0.0.1:0", "udp:[::1]"] {
            await #expect(throws: LinkError.peerNotFound(PeerIdentity(text))) {
                _ = try await connector.connect(to: PeerIdentity(text), deadline: Self.soon())
            }
        }
        #expect(connector.latestGeneration == LinkGeneration(0))
    }

    @Test func cancelledConnectThrowsCancelled() async throws {
        let connector = UDPConnector(presenting: .test)
        let outcome = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            do throws(LinkError) {
                _ = try await connector.connect(to: PeerIdentity("127.0.0.1:1337"), deadline: Self.soon())
                return LinkError?.none
            } catch {
                return error
            }
        }.value
        #expect(outcome == .cancelled)
    }
}
