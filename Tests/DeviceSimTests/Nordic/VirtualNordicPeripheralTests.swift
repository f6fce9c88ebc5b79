import DFUCore
import DeviceSim
import Testing
import Transport

/// The Nordic device served over the memory link: connect, discover, subscribe, write, notifications.
@Suite(.timeLimit(.minutes(1))) struct VirtualNordicPeripheralTests {
    /// Catches a hang only: a busy machine can hold a healthy test back for tens of seconds.
    static func soon() -> ContinuousClock.Instant { .now + .seconds(60) }

    /// Stop-and-wait Control Point calls over one link.
    struct ControlPoint {
        let link: any Link
        var events: AsyncStream<LinkEvent>.Iterator

        init(_ link: any Link) async throws {
            self.link = link
            events = link.events.makeAsyncIterator()
            try await link.subscribe(NordicDeviceGATT.controlPoint)
        }

        mutating func call(_ request: [UInt8]) async throws -> [UInt8] {
            try await link.write(request, to: NordicDeviceGATT.controlPoint)
            return try await notification()
        }

        mutating func notification() async throws -> [UInt8] {
            while let event = await events.next() {
                if case .notification(NordicDeviceGATT.controlPoint, let value) = event.kind { return value }
            }
            throw LinkError.disconnected(.remoteUserTerminated)
        }

        /// Write Commands of the link's largest size rounded down to a multiple of 4 (§10.3).
        func send(_ bytes: ArraySlice<UInt8>) async throws {
            let size = link.parameters.maxWriteWithoutResponse / 4 * 4
            var start = bytes.startIndex
            while start < bytes.endIndex {
                let end = min(start + size, bytes.endIndex)
                try await link.writeWithoutResponse(Array(bytes[start ..< end]), to: NordicDeviceGATT.packet)
                start = end
            }
        }

        mutating func disconnection() async -> DisconnectReason? {
            while let event = await events.next() {
                if case .disconnected(let reason) = event.kind { return reason }
            }
            return nil
        }
    }

    @Test func buttonlessEntryAndAFullUpdateOverTheMemoryLink() async throws {
        let image = try NordicSamples.image("app-signed-3.zip")
        let connector = MemoryConnector(clock: .unpaced())
        let sim = try await VirtualNordicPeripheral.serve(try SimOptions.parse("sim:protocol=nordic,id=C0:00:00:00:00:FF,battery=55,inactivity=off"),
                                                          on: connector)
        #expect(sim.bootloaderIdentity == PeerIdentity("C0:00:00:00:00:00"))

        let app = try await connector.connect(to: sim.applicationIdentity, deadline: Self.soon())
        #expect(app.services == NordicDeviceGATT.application)
        #expect(try await app.read(NordicDeviceGATT.firmwareRevision) == Array("0.0.1".utf8))
        #expect(try await app.read(NordicDeviceGATT.batteryLevel) == [55])
        var appEvents = app.events.makeAsyncIterator()
        try await app.subscribe(NordicDeviceGATT.buttonless)
        try await app.write([0x01], to: NordicDeviceGATT.buttonless)
        #expect(await appEvents.next()?.kind == .notification(NordicDeviceGATT.buttonless, [0x20, 0x01, 0x01]))
        #expect(await appEvents.next()?.kind == .disconnected(.remoteUserTerminated))

        let dfu = try await connector.connect(to: sim.bootloaderIdentity, deadline: Self.soon())
        #expect(dfu.services == NordicDeviceGATT.bootloader)
        #expect(dfu.parameters.attMTU == 247 && dfu.parameters.maxWriteWithoutResponse == 244)
        // The Control Point refuses requests until its notifications are on.
        await #expect(throws: LinkError.rejected(NordicDeviceGATT.controlPoint, ATTError(code: 0xFD))) {
            try await dfu.write([0x06, 0x01], to: NordicDeviceGATT.controlPoint)
        }
        var cp = try await ControlPoint(dfu)
        let dat = image.initPacket.bytes
        #expect(try await cp.call([0x06, 0x01]) == [0x60, 0x06, 0x01, 0x00, 0x02, 0, 0] + [UInt8](repeating: 0, count: 8))
        #expect(try await cp.call([0x02, 0x00, 0x00]) == [0x60, 0x02, 0x01])
        #expect(try await cp.call([0x01, 0x01] + NordicBench.le32(UInt32(dat.count))) == [0x60, 0x01, 0x01])
        try await cp.send(dat[...])
        #expect(try await cp.call([0x03]) == [0x60, 0x03, 0x01] + NordicBench.le32(UInt32(dat.count)) + NordicBench.le32(CRC32.checksum(dat)))
        #expect(try await cp.call([0x04]) == [0x60, 0x04, 0x01])
        #expect(try await cp.call([0x02, 0x04, 0x00]) == [0x60, 0x02, 0x01])
        var offset = 0
        while offset < image.firmware.count {
            let end = min(offset + 4096, image.firmware.count)
            #expect(try await cp.call([0x01, 0x02] + NordicBench.le32(UInt32(end - offset))) == [0x60, 0x01, 0x01])
            try await cp.send(image.firmware[offset ..< end])
            // 244-byte writes (MTU 247): 17 per object, a receipt after every fourth.
            for receipt in 1 ... 4 {
                let sent = min(offset + receipt * 4 * 244, end)
                #expect(try await cp.notification() == [0x60, 0x03, 0x01] + NordicBench.le32(UInt32(sent))
                    + NordicBench.le32(CRC32.checksum(image.firmware[0 ..< sent])))
            }
            #expect(try await cp.call([0x03]) == [0x60, 0x03, 0x01] + NordicBench.le32(UInt32(end)) + NordicBench.le32(CRC32.checksum(image.firmware[0 ..< end])))
            #expect(try await cp.call([0x04]) == [0x60, 0x04, 0x01])
            offset = end
        }
        #expect(await cp.disconnection() == .remoteUserTerminated)

        let updated = try await connector.connect(to: sim.applicationIdentity, deadline: Self.soon())
        #expect(updated.services == NordicDeviceGATT.application)
        #expect(try await updated.read(NordicDeviceGATT.firmwareRevision) == Array("0.0.3".utf8))
        let snapshot = await sim.snapshot
        #expect(snapshot.applicationVersion == 3)
        #expect(snapshot.boots.map(\.target) == [.bootloader, .application(version: 3)])
        await updated.disconnect()
    }
}
