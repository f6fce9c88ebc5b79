import Testing
import Transport
import UDPTransport

@Suite(.timeLimit(.minutes(1))) struct UDPServerSocketTests {
    typealias Support = UDPTestSupport
    let smp = DatagramGATTFace.test.characteristic

    @Test func bindingPortZeroReportsThePortTheKernelChose() async throws {
        let server = try UDPServerSocket.bind(to: .loopbackV4(port: 0))
        #expect(server.localAddress.port != 0)
        #expect(server.localAddress.host == "127.0.0.1")
        await server.close()
    }

    @Test func answersEachSenderAtItsOwnAddress() async throws {
        let server = try UDPServerSocket.bind(to: .loopbackV4(port: 0))
        let first = try UDPLink.connect(to: server.localAddress, presenting: .test)
        let second = try UDPLink.connect(to: server.localAddress, presenting: .test)
        try await first.writeWithoutResponse([1], to: smp)
        try await second.writeWithoutResponse([2], to: smp)

        // Reply to each with its own byte plus 100; each link must get only its own answer.
        let seen = try await Support.within {
            var senders: [UInt8: SocketAddress] = [:]
            for await datagram in server.datagrams {
                guard let first = datagram.bytes.first else { continue }
                senders[first] = datagram.sender
                if senders.count == 2 { break }
            }
            return senders
        }
        #expect(seen[1] == first.localAddress && seen[2] == second.localAddress)
        for (byte, sender) in seen { try await server.send([byte + 100], to: sender) }
        #expect(Support.payloads(try await Support.events(of: first, notifications: 1)) == [[101]])
        #expect(Support.payloads(try await Support.events(of: second, notifications: 1)) == [[102]])
        await first.disconnect()
        await second.disconnect()
        await server.close()
    }

    @Test func closeFinishesTheStreamAndFailsLaterSends() async throws {
        let server = try UDPServerSocket.bind(to: .loopbackV4(port: 0))
        let address = server.localAddress
        let drained = Task { for await _ in server.datagrams {} }
        await server.close()
        await server.close()
        try await Support.within { await drained.value }
        await #expect(throws: UDPSocketError.closed) { try await server.send([1], to: address) }
        #expect(server.failure == nil)

        // Closed means released: the same port can be bound again at once.
        let again = try UDPServerSocket.bind(to: address)
        await again.close()
    }

    @Test func bindingATakenPortSaysAnotherProgramListens() async throws {
        let server = try UDPServerSocket.bind(to: .loopbackV4(port: 0))
        do {
            _ = try UDPServerSocket.bind(to: server.localAddress)
            Issue.record("a second socket bound \(server.localAddress)")
        } catch {
            guard case .system(let failure) = error else { throw error }
            #expect(failure.name == "EADDRINUSE")
            #expect(error.description.contains("Another program listens on that port"))
        }
        await server.close()
    }

    @Test func bindsByHostAndPortText() async throws {
        let server = try await UDPServerSocket.bind("127.0.0.1:0")
        #expect(server.localAddress.host == "127.0.0.1")
        await server.close()
        await #expect(throws: UDPSocketError.address(.malformed("127.0.0.1", reason: "the port is missing"))) {
            _ = try await UDPServerSocket.bind("127.0.0.1")
        }
    }

    @Test func resolvesLocalhostByName() async throws {
        let server = try await UDPServerSocket.bind("localhost:0")
        #expect(["127.0.0.1", "::1"].contains(server.localAddress.host))
        await server.close()
    }
}
