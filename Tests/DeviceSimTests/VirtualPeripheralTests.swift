import DFUCore
import DeviceSim
import Testing
import Transport

/// The virtual device served over the memory link, driven the way the engine's driver will:
/// writes split to the link's write size, replies reassembled from notifications.
@Suite(.timeLimit(.minutes(1))) struct VirtualPeripheralTests {
    /// A minimal stop-and-wait SMP client over one link.
    struct LinkClient {
        let link: any Link
        var events: AsyncStream<LinkEvent>.Iterator
        var assembler = SMPFrameAssembler()
        var sequence: UInt8 = 0

        init(_ link: any Link) async throws {
            self.link = link
            events = link.events.makeAsyncIterator()
            try await link.subscribe(DeviceGATT.smpCharacteristic)
        }

        mutating func call<R: SMPRequest>(_ request: R) async throws -> Result<R.Response, SMPError> {
            sequence &+= 1
            let bytes = try request.packet(sequence: sequence).encoded()
            for write in try SMPFragmenter.split(bytes, maxWriteSize: link.parameters.maxWriteWithoutResponse) {
                try await link.writeWithoutResponse(write, to: DeviceGATT.smpCharacteristic)
            }
            while let event = await events.next() {
                guard case .notification(_, let value) = event.kind else { break }
                if let frame = try assembler.append(value), frame.header.sequence == sequence {
                    return try R.Response.decodeResponse(try SMPPacket(frame: frame).body)
                }
            }
            throw LinkError.disconnected(.remoteUserTerminated)
        }

        /// Waits for the link's end.
        mutating func disconnection() async -> DisconnectReason? {
            while let event = await events.next() {
                if case .disconnected(let reason) = event.kind { return reason }
            }
            return nil
        }
    }

    /// Catches a hang only: a busy machine can hold a healthy test back for tens of seconds.
    static func soon() -> ContinuousClock.Instant { .now + .seconds(60) }

    @Test func linkCarriesSMPAndTheGATTReads() async throws {
        let connector = MemoryConnector(clock: .unpaced())
        let peripheral = try await VirtualPeripheral.serve(try SimOptions.parse("sim:version=1.0.0,battery=42"),
                                                           on: connector)
        let link = try await connector.connect(to: peripheral.identity, deadline: Self.soon())
        #expect(link.services == DeviceGATT.services)
        #expect(try await link.read(DeviceGATT.batteryLevel) == [42])
        #expect(try await link.read(DeviceGATT.firmwareRevision) == Array("1.0.0".utf8))
        var client = try await LinkClient(link)
        #expect(try await client.call(OSEchoRequest(text: String(repeating: "e", count: 1200))).get().text.count == 1200)
        #expect(try await client.call(MCUmgrParametersRequest()).get().bufferSize == 2475)
        await link.disconnect()
    }

    @Test func updateOverTheLinkSurvivesTheRebootAndReconnect() async throws {
        let connector = MemoryConnector(clock: .unpaced())
        let peripheral = try await VirtualPeripheral.serve(try SimOptions.parse("sim:version=1.0.0"), on: connector)
        let image = try SimSamples.blinky("1.1.0")
        let hash = try SimSamples.slotHash(image)
        var client = try await LinkClient(try await connector.connect(to: peripheral.identity, deadline: Self.soon()))

        var offset = 0
        while offset < image.count {
            var request = ImageUploadRequest(length: offset == 0 ? UInt64(image.count) : nil, offset: UInt64(offset),
                                             sha: offset == 0 ? try SimSamples.fileSHA(image) : nil, data: [])
            let room = try #require(request.maximumDataCount(packetSize: 2475))
            request.data = Array(image[offset ..< min(image.count, offset + room)])
            offset = Int(try await client.call(request).get().offset)
        }
        _ = try await client.call(ImageStateWriteRequest(hash: hash)).get()
        _ = try await client.call(OSResetRequest()).get()
        #expect(await client.disconnection() == .remoteUserTerminated)

        client = try await LinkClient(try await connector.connect(to: peripheral.identity, deadline: Self.soon()))
        let state = try await client.call(ImageStateReadRequest()).get()
        #expect(state.slot(0).map { $0.version == "1.1.0" && $0.active && !$0.confirmed } == true)
        #expect(try await client.call(ImageStateWriteRequest(confirm: true)).get().slot(0)?.confirmed == true)
        #expect(await peripheral.snapshot.boots.map(\.outcome) == [.swapped(permanent: false)])
        await client.link.disconnect()
    }

    @Test func lateDisconnectionOfAnEarlierLinkLeavesTheCurrentOneUp() async throws {
        let connector = MemoryConnector(clock: .unpaced())
        let peripheral = try await VirtualPeripheral.serve(try SimOptions.parse("sim"), on: connector)
        let first = try await connector.connect(to: peripheral.identity, deadline: Self.soon())
        await first.disconnect()
        let second = try await connector.connect(to: peripheral.identity, deadline: Self.soon())
        // The first link's end, told again after the second link came up, as a late callback would.
        await peripheral.handleDisconnect(.remoteUserTerminated, generation: first.parameters.generation)
        try #require(await peripheral.snapshot.isConnected)
        var client = try await LinkClient(second)
        #expect(try await client.call(OSEchoRequest(text: "still here")).get().text == "still here")
        await second.disconnect()
    }

    @Test func disconnectFaultDropsTheLinkAndTheDeviceStaysReachable() async throws {
        let connector = MemoryConnector(clock: .unpaced())
        let peripheral = try await VirtualPeripheral.serve(try SimOptions.parse("sim:fault=disconnect@0%"), on: connector)
        let image = try SimSamples.blinky("1.1.0")
        var client = try await LinkClient(try await connector.connect(to: peripheral.identity, deadline: Self.soon()))
        let first = ImageUploadRequest(length: UInt64(image.count), offset: 0, sha: try SimSamples.fileSHA(image),
                                       data: Array(image.prefix(1000)))
        await #expect(throws: LinkError.self) { _ = try await client.call(first) }
        client = try await LinkClient(try await connector.connect(to: peripheral.identity, deadline: Self.soon()))
        #expect(try await client.call(first).get().offset == 1000)    // resumed by sha
        await client.link.disconnect()
    }
}
