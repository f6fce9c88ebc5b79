import DFUCore
import DeviceSim
import Testing
import Transport
import UDPTransport

/// The virtual device served over UDP on loopback, driven with SMP packets through Transport's
/// `UDPLink`, one packet per datagram, as smpclient and Zephyr's UDP transport do. Most tests run
/// the device's clock 50 times faster than real time (flash, reset delay, swap), which changes no
/// rule; the reset test moves a hand-moved clock itself, so the device is down until it says so.
@Suite(.timeLimit(.minutes(1))) struct UDPServerTests {
    static func serve(_ options: String = "sim:version=1.0.0", clock: LinkClock? = nil,
                      log: UDPServerEventLog = UDPServerEventLog()) async throws -> VirtualDeviceUDPServer {
        let clock = try clock ?? #require(LinkClock(timeScale: 0.02))
        return try await VirtualDeviceUDPServer.serve(try SimOptions.parse(options), at: "127.0.0.1:0", clock: clock,
                                                      observer: log.observer)
    }

    /// Moves a hand-moved `clock` to the device's next deadline (the reset after its reply, the
    /// end of a boot), as quinn's test pair jumps to the next wake-up.
    static func advanceToNextDeadline(of server: VirtualDeviceUDPServer, _ clock: LinkClock) async throws {
        let deadline = try #require(await server.snapshot.nextDeadline, "the device has nothing due")
        clock.advance(by: clock.now.duration(to: deadline))
    }

    /// One upload request for `image` at `offset` (off 0 carries `len` and `sha`), its data filling a
    /// datagram of smpclient's size.
    static func chunk(of image: [UInt8], at offset: Int) throws -> ImageUploadRequest {
        let first = offset == 0
        var request = ImageUploadRequest(length: first ? UInt64(image.count) : nil, offset: UInt64(offset),
                                         sha: first ? try SimSamples.fileSHA(image) : nil, data: [])
        let room = try #require(request.maximumDataCount(packetSize: UDPLink.defaultMaxDatagramSize))
        request.data = Array(image[offset ..< min(image.count, offset + room)])
        return request
    }

    /// Uploads from `offset` (0: a first packet, which resumes a session with the same `sha`),
    /// trusting every reply's `off`, until `stopAt` or the end; returns the last `off`.
    @discardableResult
    static func upload(_ image: [UInt8], with client: UDPTestClient, from offset: Int = 0,
                       stopAt: Int? = nil) async throws -> Int {
        var offset = offset
        repeat {
            offset = Int(try await client.call(try chunk(of: image, at: offset)).get().offset)
            if let stopAt, offset >= stopAt { break }
        } while offset < image.count
        return offset
    }

    @Test func echoAndParametersAnswerInOneDatagramEach() async throws {
        let server = try await Self.serve()
        let client = try await UDPTestClient.connect(server.localAddress)
        #expect(try await client.call(OSEchoRequest(text: "hello over UDP")).get().text == "hello over UDP")
        let parameters = try await client.call(MCUmgrParametersRequest()).get()
        #expect(parameters.bufferSize == 2475 && parameters.bufferCount == 4)
        // The longest echo that fits smpclient's 1,472-byte datagram comes back whole.
        let long = String(repeating: "e", count: 1400)
        #expect(try await client.call(OSEchoRequest(text: long)).get().text == long)
        #expect(await client.undecodable == 0)
        await client.close()
        await server.stop()
    }

    @Test func uploadTestResetAndStateReadWithRawPackets() async throws {
        let log = UDPServerEventLog()
        let server = try await Self.serve(log: log)
        let client = try await UDPTestClient.connect(server.localAddress)
        let image = try SimSamples.blinky("1.1.0")
        let hash = try SimSamples.slotHash(image)

        #expect(try await Self.upload(image, with: client) == image.count)
        let uploaded = try await client.call(ImageStateReadRequest()).get()
        #expect(uploaded.slot(1).map { $0.version == "1.1.0" && $0.hash == hash && !$0.pending } == true)
        #expect(log.events.contains(.uploadStarted(length: image.count, from: client.link.localAddress)))
        #expect(log.count { if case .uploadCompleted(image.count, let held) = $0 { held?.hash == hash } else { false } } == 1)

        let tested = try await client.call(ImageStateWriteRequest(hash: hash)).get()
        #expect(tested.slot(1)?.pending == true)
        _ = try await client.call(OSResetRequest()).get()
        #expect(await log.wait { $0.contains { if case .online = $0 { true } else { false } } })

        let state = try await client.call(ImageStateReadRequest()).get()
        #expect(state.slot(0).map { $0.version == "1.1.0" && $0.hash == hash && $0.active && !$0.confirmed } == true)
        #expect(state.slot(1).map { $0.version == "1.0.0" && $0.confirmed } == true)
        #expect(try await client.call(ImageStateWriteRequest(confirm: true)).get().slot(0)?.confirmed == true)
        #expect(await server.snapshot.boots.map(\.outcome) == [.swapped(permanent: false)])
        await client.close()
        await server.stop()
    }

    @Test func stateAndUploadSessionLastWhileClientsTakeTurns() async throws {
        let server = try await Self.serve()
        let image = try SimSamples.blinky("1.1.0")
        let first = try await UDPTestClient.connect(server.localAddress)
        let stoppedAt = try await Self.upload(image, with: first, stopAt: image.count / 2)
        await first.close()

        // Another client, another port: its off-0 packet with the same sha resumes the session.
        let second = try await UDPTestClient.connect(server.localAddress)
        #expect(second.link.localAddress != first.link.localAddress)
        let resumed = try await second.call(try Self.chunk(of: image, at: 0)).get().offset
        #expect(Int(resumed) == stoppedAt)
        #expect(try await Self.upload(image, with: second, from: Int(resumed)) == image.count)
        await second.close()

        let third = try await UDPTestClient.connect(server.localAddress)
        let state = try await third.call(ImageStateReadRequest()).get()
        #expect(state.slot(1)?.hash == (try SimSamples.slotHash(image)))
        await third.close()
        await server.stop()
    }

    @Test func eachReplyGoesToTheClientThatAsked() async throws {
        let server = try await Self.serve()
        let alice = try await UDPTestClient.connect(server.localAddress)
        let bob = try await UDPTestClient.connect(server.localAddress)
        // Same sequence numbers from both: only the sender tells the replies apart.
        for round in 1 ... 3 {
            #expect(try await alice.call(OSEchoRequest(text: "alice \(round)")).get().text == "alice \(round)")
            #expect(try await bob.call(OSEchoRequest(text: "bob \(round)")).get().text == "bob \(round)")
        }
        await alice.close()
        await bob.close()
        await server.stop()
    }

    /// Zephyr's UDP transport receives into a 1,500-byte buffer (`CONFIG_MCUMGR_TRANSPORT_UDP_MTU`),
    /// so a longer datagram reaches SMP cut short and is answered `rc 9` (reference §8).
    @Test func datagramLongerThanTheUDPMTUIsCutAndAnsweredRc9() async throws {
        let log = UDPServerEventLog()
        let server = try await Self.serve(log: log)
        let client = try await UDPTestClient.connect(server.localAddress, maxDatagramSize: 4000)
        let packet = try OSEchoRequest(text: String(repeating: "x", count: 1600)).packet(sequence: 7).encoded()
        let frame = try #require(try await client.send(packet, awaiting: 7))
        #expect(try SMPStatus(body: try SMPPacket(frame: frame).body) == .failure(.mcumgr(.corrupt)))
        #expect(log.events.contains(.truncated(size: packet.count, limit: 1500, from: client.link.localAddress)))
        await client.close()
        await server.stop()
    }

    /// A datagram within the UDP MTU but longer than `buf_size` is cut at the buffer: `rc 9` too,
    /// which is what smpclient meets when it sizes its chunks from the MTU (reference §8).
    @Test func datagramLongerThanBufSizeIsAnsweredRc9() async throws {
        let server = try await Self.serve("sim:buf_size=512")
        let client = try await UDPTestClient.connect(server.localAddress)
        let refused = try await client.call(OSEchoRequest(text: String(repeating: "y", count: 1000)))
        #expect(refused == .failure(.mcumgr(.corrupt)))
        #expect(try await client.call(OSEchoRequest(text: "short")).get().text == "short")
        await client.close()
        await server.stop()
    }

    @Test func datagramsAreIgnoredWhileTheDeviceResets() async throws {
        let log = UDPServerEventLog()
        // Model time moves only here: the device stays down, however late the datagram comes.
        let clock = LinkClock.manual()
        let server = try await Self.serve(clock: clock, log: log)
        let client = try await UDPTestClient.connect(server.localAddress)
        _ = try await client.call(OSResetRequest()).get()
        try await Self.advanceToNextDeadline(of: server, clock)
        #expect(await log.wait { $0.contains { if case .rebooting = $0 { true } else { false } } })
        let sequence = await client.nextSequence()
        let echo = try OSEchoRequest(text: "anyone?").packet(sequence: sequence).encoded()
        try await client.link.writeWithoutResponse(echo, to: DatagramGATTFace.smp.characteristic)
        #expect(await log.wait { $0.contains { if case .ignoredWhileDown = $0 { true } else { false } } })
        try await Self.advanceToNextDeadline(of: server, clock)
        #expect(await log.wait { $0.contains { if case .online = $0 { true } else { false } } })
        #expect(try await client.call(OSEchoRequest(text: "back")).get().text == "back")
        // Nobody received the datagram sent while the device was down, so nothing answered it.
        #expect(await client.frame(sequence: sequence, within: .zero) == nil)
        #expect(log.count { if case .ignoredWhileDown = $0 { true } else { false } } == 1)
        await client.close()
        await server.stop()
    }

    /// A `disconnect@` fault over UDP: the reply of that chunk is lost, the device keeps its session,
    /// and the next datagram reaches it again; an off-0 packet with the same sha resumes.
    @Test func disconnectFaultLosesOneReplyAndTheNextDatagramReconnects() async throws {
        let log = UDPServerEventLog()
        let server = try await Self.serve("sim:fault=disconnect@0%", log: log)
        let client = try await UDPTestClient.connect(server.localAddress)
        let image = try SimSamples.blinky("1.1.0")
        let first = try Self.chunk(of: image, at: 0)
        let packet = first.packet(sequence: await client.nextSequence())
        try await client.link.writeWithoutResponse(try packet.encoded(), to: DatagramGATTFace.smp.characteristic)
        // The link drops as the chunk lands: its reply is lost, not late.
        #expect(await log.wait { $0.contains(.faultInjected(.disconnect(at: .percent(0)))) })
        #expect(await log.wait { $0.contains(.dropped(.responseLostOnDisconnect)) })
        #expect(await client.frame(sequence: packet.header.sequence, within: .zero) == nil)
        let resumed = try await client.call(first).get().offset
        #expect(Int(resumed) == first.data.count)
        #expect(try await Self.upload(image, with: client, from: Int(resumed)) == image.count)
        await client.close()
        await server.stop()
    }

    @Test func stopReleasesThePortAndABusyPortIsRefused() async throws {
        let server = try await Self.serve()
        let address = server.localAddress
        await #expect(throws: UDPServeError.self) {
            _ = try await VirtualDeviceUDPServer.serve(SimOptions(), at: "\(HostAndPort(address))")
        }
        await server.stop()
        await server.waitUntilStopped()
        let again = try await VirtualDeviceUDPServer.serve(SimOptions(), at: "\(HostAndPort(address))")
        #expect(again.localAddress == address)
        await again.stop()
    }
}
