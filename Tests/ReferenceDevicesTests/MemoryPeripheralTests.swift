import ReferenceDevices
import Testing
import Transport

/// The device served over the memory link, driven through `Link` as a client would.
@Suite struct MemoryPeripheralTests {
    /// One connection's notifications, in order.
    struct Central {
        let link: any Link
        var events: AsyncStream<LinkEvent>.Iterator

        init(_ link: any Link) {
            self.link = link
            events = link.events.makeAsyncIterator()
        }

        mutating func next() async -> LinkEvent.Kind? { await events.next()?.kind }

        mutating func request(_ bytes: [UInt8], on characteristic: CharacteristicID) async throws -> [UInt8]? {
            try await link.write(bytes, to: characteristic)
            guard case .notification(_, let value)? = await next() else { return nil }
            return value
        }
    }

    /// A clock 100 times faster than real time. An unpaced clock would not do: its time jumps to
    /// the next sleeper's deadline whenever the link is idle, so the bootloader's 120 s inactivity
    /// timer would fire between two requests.
    static func fastClock() throws -> LinkClock {
        guard let clock = LinkClock(timeScale: 0.01) else { throw ClockError() }
        return clock
    }

    struct ClockError: Error {}

    static func connect(_ connector: MemoryConnector, _ identity: PeerIdentity) async throws -> Central {
        Central(try await connector.connect(to: identity, deadline: .now + .seconds(10)))
    }

    @Test func updateOverTheMemoryLinkSwitchesIdentitiesAndNames() async throws {
        let update = try Update.application(size: 9000, version: 3)
        let connector = MemoryConnector(clock: try Self.fastClock())
        let device = await SDKPeripheral.serve(Update.config(), on: connector)

        var app = try await Self.connect(connector, device.applicationIdentity)
        #expect(try await app.link.read(SDKGATT.firmwareRevision) == Array("1".utf8))
        try await app.link.subscribe(SDKGATT.buttonless)
        #expect(try await app.request([0x02, 0x05] + Array("Dfu42".utf8), on: SDKGATT.buttonless) == [0x20, 0x02, 0x01])
        #expect(await device.bootloaderName == "Dfu42")
        #expect(try await app.request([0x01], on: SDKGATT.buttonless) == [0x20, 0x01, 0x01])
        #expect(await app.next() == .disconnected(.remoteUserTerminated))

        var dfu = try await Self.connect(connector, device.bootloaderIdentity)
        #expect(await device.mode == .bootloader)
        #expect(await device.advertisement?.name == "Dfu42")
        #expect(dfu.link.services.flatMap(\.characteristics).map(\.id) == [SDKGATT.controlPoint, SDKGATT.packet])
        try await dfu.link.subscribe(SDKGATT.controlPoint)
        let cp = SDKGATT.controlPoint
        #expect(try await dfu.request([0x01, 0x01] + le32(UInt32(update.initPacket.count)), on: cp) == [0x60, 0x01, 0x01])
        try await dfu.link.writeWithoutResponse(update.initPacket, to: SDKGATT.packet)
        #expect(try await dfu.request([0x04], on: cp) == [0x60, 0x04, 0x01])
        for start in stride(from: 0, to: update.image.count, by: 4096) {
            let object = Array(update.image[start ..< min(update.image.count, start + 4096)])
            #expect(try await dfu.request([0x01, 0x02] + le32(UInt32(object.count)), on: cp) == [0x60, 0x01, 0x01])
            for index in stride(from: 0, to: object.count, by: 244) {
                try await dfu.link.writeWithoutResponse(Array(object[index ..< min(object.count, index + 244)]),
                                                       to: SDKGATT.packet)
            }
            #expect(try await dfu.request([0x03], on: cp) == [0x60, 0x03, 0x01] + le32(UInt32(start + object.count))
                + le32(crc32(update.image.prefix(start + object.count))))
            #expect(try await dfu.request([0x04], on: cp) == [0x60, 0x04, 0x01])
        }
        #expect(await dfu.next() == .disconnected(.remoteUserTerminated))

        let again = try await Self.connect(connector, device.applicationIdentity)
        #expect(try await again.link.read(SDKGATT.firmwareRevision) == Array("3".utf8))
        #expect(await device.runningApplicationVersion == 3)
        let counters = await device.counters
        #expect(counters.resets == 2)
        #expect(counters.dataObjectsExecuted == 3)
        #expect(counters.bytesReceived == update.initPacket.count + update.image.count)
        #expect(await device.bootloaderName == "DfuTarg")
    }

    @Test func aFaultDropsTheLinkAfterTheAnswerAndTheBootloaderAdvertisesAgain() async throws {
        let connector = MemoryConnector(clock: try Self.fastClock())
        var configuration = Update.config()
        configuration.faults.dropAfterExecute = 1
        configuration.faults.dropAfterExecuteOf = .command
        let update = try Update.application(size: 4096)
        let device = await SDKPeripheral.serve(configuration, on: connector)
        var app = try await Self.connect(connector, device.applicationIdentity)
        try await app.link.subscribe(SDKGATT.buttonless)
        _ = try await app.request([0x01], on: SDKGATT.buttonless)

        var dfu = try await Self.connect(connector, device.bootloaderIdentity)
        try await dfu.link.subscribe(SDKGATT.controlPoint)
        _ = try await dfu.request([0x01, 0x01] + le32(UInt32(update.initPacket.count)), on: SDKGATT.controlPoint)
        try await dfu.link.writeWithoutResponse(update.initPacket, to: SDKGATT.packet)
        #expect(try await dfu.request([0x04], on: SDKGATT.controlPoint) == [0x60, 0x04, 0x01])
        #expect(await dfu.next() == .disconnected(.remoteUserTerminated))

        var back = try await Self.connect(connector, device.bootloaderIdentity)
        try await back.link.subscribe(SDKGATT.controlPoint)
        #expect(try await back.request([0x06, 0x01], on: SDKGATT.controlPoint)
            == [0x60, 0x06, 0x01] + le32(512) + le32(UInt32(update.initPacket.count)) + le32(crc32(update.initPacket)))
        #expect(await device.counters.faultsInjected == 1)
    }
}
