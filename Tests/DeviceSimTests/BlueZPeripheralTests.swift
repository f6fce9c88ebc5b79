import BlueZTransport
import DBusBinding
import DFUCore
@testable import DeviceSim
import Testing
import Transport

/// `BlueZPeripheral` against a stand-in bluetoothd (`FakeBlueZ`) on a private bus: what it
/// registers, what a central's writes and reads get, and the order of the unregister and register
/// steps around a reset. The real bluetoothd is exercised on the rig (`make test-bluez`).
@Suite(.enabled(if: peripheralDBusAvailable, peripheralDBusSkipReason))
struct BlueZPeripheralTests {
    static let smpUUID = "8d53dc1d-1db7-4cd3-868b-8a527460aa84"

    /// Runs `body` with a fresh bus, a stand-in bluetoothd and a peripheral serving `options` on hci0.
    private func withPeripheral(_ options: String = "sim", clock: LinkClock = .realTime(),
                                pairing: PeripheralSecurity.Pairing = PeripheralSecurity.Pairing(),
                                events: EventLog = EventLog(),
                                _ body: @escaping @Sendable (FakeBlueZ, BlueZPeripheral<SMPPeripheralModel>) async throws -> Void) async throws {
        try await BlueZPeripheralTestBus.withServed({ bus in
            try await BlueZPeripheral.serve(try SimOptions.parse(options), adapter: "hci0", pairing: pairing,
                                            bus: bus.busAddress, clock: clock) { events.append($0) }
        }, body)
    }

    @Test func theApplicationOffersTheDeviceGATTWithoutAcquiredWritesOrNotifications() async throws {
        try await withPeripheral { bluez, peripheral in
            let tree = await bluez.application
            let services = tree.values.compactMap { $0["org.bluez.GattService1"] }
            #expect(Set(services.compactMap { try? $0["UUID"]?.asString() })
                == [Self.smpUUID, "0000180f-0000-1000-8000-00805f9b34fb", "0000180a-0000-1000-8000-00805f9b34fb"])
            #expect(services.allSatisfy { (try? $0["Primary"]?.asBool()) == true })

            var flags: [String: [String]] = [:]
            for (path, interfaces) in tree {
                guard let characteristic = interfaces["org.bluez.GattCharacteristic1"] else { continue }
                let uuid = try #require(try characteristic["UUID"]?.asString())
                flags[uuid] = try characteristic["Flags"]?.asStrings()
                #expect(characteristic["WriteAcquired"] == nil && characteristic["NotifyAcquired"] == nil, "\(uuid)")
                // Each characteristic names the service object it belongs to, which is in the tree.
                let service = try #require(try characteristic["Service"]?.asObjectPath())
                #expect(tree[service]?["org.bluez.GattService1"] != nil && path.hasPrefix(service + "/"))
            }
            #expect(flags == [
                "da2e7828-fbce-4e01-ae9e-261174997c48": ["write-without-response", "notify"],
                "00002a19-0000-1000-8000-00805f9b34fb": ["read", "notify"],
                "00002a26-0000-1000-8000-00805f9b34fb": ["read"],
            ])
            #expect(peripheral.address == FakeBlueZ.adapterAddress)
            #expect(await bluez.calls == ["RegisterApplication /org/dfu/sim/hci0/app",
                                          "RegisterAdvertisement /org/dfu/sim/hci0/advertisement"])
        }
    }

    @Test func theAdvertisementIsConnectableDiscoverableWithTheSMPServiceAndTheName() async throws {
        try await withPeripheral("sim:id=C3:11:22:33:EE:0F") { bluez, peripheral in
            let advertisement = await bluez.advertisement
            let type = try advertisement["Type"]?.asString()
            let uuids = try advertisement["ServiceUUIDs"]?.asStrings()
            let name = try advertisement["LocalName"]?.asString()
            let discoverable = try advertisement["Discoverable"]?.asBool()
            #expect(type == "peripheral")
            #expect(uuids == [Self.smpUUID])
            #expect(name == "dfu-sim-EE0F")
            #expect(discoverable == true)
            #expect(peripheral.name == "dfu-sim-EE0F")
        }
    }

    @Test func anEchoWrittenByTheCentralComesBackAsANotification() async throws {
        let events = EventLog()
        try await withPeripheral(events: events) { bluez, _ in
            try await bluez.connectCentral()
            try await bluez.startNotify()
            let notifications = try await bluez.notifications()
            try await bluez.write(try OSEchoRequest(text: "hi").packet(sequence: 7).encoded())
            let frame = try await Self.firstFrame(of: notifications)
            #expect(frame.header.sequence == 7)
            let reply = try OSEchoResponse.decodeResponse(try SMPPacket(frame: frame).body).get()
            #expect(reply.text == "hi")
        }
        #expect(events.lines.contains("central …:55:66 connected"), "\(events.lines)")
    }

    /// Notifications fit what bluetoothd sends a BlueZ central (MTU − 5, a Multiple Handle Value
    /// Notification), and never exceed 510 bytes, which a BlueZ ≤ 5.68 server would drop.
    @Test(arguments: [(UInt16(23), 18), (UInt16(498), 493), (UInt16(517), 510)])
    func notificationsFitAMultipleHandleNotificationAndAt510Bytes(mtu: UInt16, largest: Int) async throws {
        let events = EventLog()
        try await withPeripheral(events: events) { bluez, _ in
            try await bluez.startNotify()
            let notifications = try await bluez.notifications()
            let text = String(repeating: "x", count: 700)
            try await bluez.write(try OSEchoRequest(text: text).packet(sequence: 1).encoded(), mtu: mtu)
            let (frame, sizes): (SMPFrame?, [Int]) = try await PeripheralWait.within {
                var sizes: [Int] = []
                var assembler = SMPFrameAssembler()
                for await bytes in notifications {
                    sizes.append(bytes.count)
                    if let frame = try assembler.append(bytes) { return (frame, sizes) }
                }
                return (nil, sizes)
            }
            let reply = try OSEchoResponse.decodeResponse(try SMPPacket(frame: try #require(frame)).body).get()
            #expect(reply.text == text)
            #expect(sizes.max() == largest && sizes.dropLast().allSatisfy { $0 == largest }, "\(sizes)")
            // The MTU is said once; above 513 a client's full-MTU writes would be lost by bluetoothd.
            let mtuLines = events.lines.filter { $0.contains("ATT MTU") }
            #expect(mtuLines.count == 1, "\(events.lines)")
            #expect(mtuLines.first?.hasPrefix("central …:55:66: ATT MTU \(mtu), writes up to \(Int(mtu) - 3) bytes, "
                + "notifications up to \(largest) bytes") == true, "\(mtuLines)")
            #expect(mtuLines.first?.contains("ExchangeMTU=498") == (mtu > 513), "\(mtuLines)")
        }
    }

    @Test func aReplyIsNotSentBeforeTheCentralSubscribes() async throws {
        let events = EventLog()
        try await withPeripheral(events: events) { bluez, _ in
            try await bluez.write(try OSEchoRequest(text: "lost").packet(sequence: 1).encoded())
            try await events.waitFor { $0.contains { $0.hasPrefix("a ") && $0.hasSuffix("the central has not subscribed") } }
            // Subscribed, the next request is answered.
            try await bluez.startNotify()
            let notifications = try await bluez.notifications()
            try await bluez.write(try OSEchoRequest(text: "kept").packet(sequence: 2).encoded())
            let frame = try await Self.firstFrame(of: notifications)
            #expect(try OSEchoResponse.decodeResponse(try SMPPacket(frame: frame).body).get().text == "kept")
        }
    }

    @Test func batteryAndFirmwareRevisionAreReadFromTheirOffset() async throws {
        try await withPeripheral("sim:battery=64,version=2.3.4") { bluez, _ in
            let battery = try await bluez.read(DeviceGATT.batteryLevel)
            let revision = try await bluez.read(DeviceGATT.firmwareRevision)
            let revisionTail = try await bluez.read(DeviceGATT.firmwareRevision, offset: 2)
            #expect(battery == [64])
            #expect(revision == Array("2.3.4".utf8))
            #expect(revisionTail == Array("3.4".utf8))
            await #expect(throws: DBusError.remote(name: "org.bluez.Error.InvalidOffset", message: "Invalid offset")) {
                try await bluez.read(DeviceGATT.firmwareRevision, offset: 6)
            }
            await #expect(throws: DBusError.remote(name: "org.bluez.Error.NotPermitted", message: "Read not permitted")) {
                try await bluez.read(DeviceGATT.smpCharacteristic)
            }
        }
    }

    /// A reset: the advertisement goes first, then the link, then the application (reference §8);
    /// nothing comes back until the boot is over; then the application and the advertisement are
    /// registered again and a central can reconnect and talk to the new boot. Time is moved by hand.
    @Test func aResetUnregistersInOrderAndRegistersAgainAfterTheBoot() async throws {
        let clock = LinkClock.manual()
        let events = EventLog()
        try await withPeripheral(clock: clock, events: events) { bluez, _ in
            try await bluez.connectCentral()
            try await bluez.startNotify()
            let notifications = try await bluez.notifications()
            try await bluez.write(try OSResetRequest().packet(sequence: 3).encoded())
            let reply = try await Self.firstFrame(of: notifications)
            #expect(reply.header.sequence == 3)

            clock.advance(by: .seconds(1))
            await bluez.waitForCalls(5)
            clock.advance(by: .seconds(60))
            await bluez.waitForCalls(7)
            let app = "/org/dfu/sim/hci0/app"
            let advertisement = "/org/dfu/sim/hci0/advertisement"
            #expect(await bluez.calls == [
                "RegisterApplication \(app)", "RegisterAdvertisement \(advertisement)",
                "UnregisterAdvertisement \(advertisement)", "Disconnect \(FakeBlueZ.centralPath)",
                "UnregisterApplication \(app)",
                "RegisterApplication \(app)", "RegisterAdvertisement \(advertisement)",
            ])

            // The central comes back: subscriptions start afresh, and the device answers.
            try await bluez.connectCentral()
            try await bluez.startNotify()
            let again = try await bluez.notifications()
            try await bluez.write(try OSEchoRequest(text: "back").packet(sequence: 4).encoded())
            let frame = try await Self.firstFrame(of: again)
            #expect(try OSEchoResponse.decodeResponse(try SMPPacket(frame: frame).body).get().text == "back")
        }
        let lines = events.lines
        for line in ["dropping the link to …:55:66 (the device resets)", "central …:55:66 disconnected",
                     "up again (boot 2), running 1.0.0+0"] {
            #expect(lines.contains(line), "\(lines)")
        }
        #expect(lines.contains { $0.hasPrefix("resetting: ") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("advertising again as dfu-sim-") }, "\(lines)")
    }

    /// Write Commands reach the device in the order bluetoothd sent them, even when their handlers
    /// start out of order: here the second half of a packet is handed over first.
    @Test func writesAreTakenInArrivalOrder() async throws {
        try await withPeripheral { bluez, peripheral in
            try await bluez.startNotify()
            let notifications = try await bluez.notifications()
            let packet = try OSEchoRequest(text: "in order").packet(sequence: 9).encoded()
            let split = packet.count / 2
            let path = try await bluez.characteristicPath(DeviceGATT.smpCharacteristic)
            func write(_ bytes: ArraySlice<UInt8>, arrival: UInt64) -> DBusMethodCall {
                DBusMethodCall(sender: ":fake", path: path, interface: "org.bluez.GattCharacteristic1",
                               member: "WriteValue",
                               arguments: [.bytes(Array(bytes)), .properties([
                                   "device": .objectPath(FakeBlueZ.centralPath), "mtu": .uint16(247),
                               ])], arrival: arrival)
            }
            // Arrival numbers continue from the calls the connection handed to handlers so far
            // (StartNotify was the first).
            let second = Task { try await peripheral.receive(write(packet[split...], arrival: 3)) }
            // The later call must be parked before the earlier one comes in.
            try await PeripheralWait.within { while await !peripheral.isParked(arrival: 3) { await Task.yield() } }
            _ = try await peripheral.receive(write(packet[..<split], arrival: 2))
            _ = try await second.value
            let frame = try await Self.firstFrame(of: notifications)
            #expect(try OSEchoResponse.decodeResponse(try SMPPacket(frame: frame).body).get().text == "in order")
        }
    }

    /// `--security authen --passkey N`: the sim's agent is registered KeyboardOnly and answers only
    /// for its own adapter's devices; and GATT calls after an agent call are still answered (the
    /// agent's calls take their turn in the connection's arrival order, or the rest would wait).
    @Test func theSecureSimsAgentAnswersItsAdapterAndTheGATTCallsAfterIt() async throws {
        let pairing = PeripheralSecurity.Pairing(security: .authen, passkey: Passkey(123_456))
        try await withPeripheral(pairing: pairing) { bluez, _ in
            #expect(await bluez.agent?.capability == "KeyboardOnly")
            #expect(try await bluez.requestPasskey(for: FakeBlueZ.centralPath) == 123_456)
            await #expect(throws: DBusError.self) {
                _ = try await bluez.requestPasskey(for: "/org/bluez/hci1/dev_00_AA_01_00_00_00")
            }
            try await bluez.connectCentral()
            #expect(try await bluez.read(DeviceGATT.batteryLevel) == [80])
            let smp = await bluez.application.values.compactMap { $0["org.bluez.GattCharacteristic1"] }
                .first { (try? $0["UUID"]?.asString()) == DeviceGATT.smpCharacteristic.uuid.description }
            #expect(try smp?["Flags"]?.asStrings().contains("encrypt-authenticated-notify") == true)
        }
    }

    @Test func bluetoothdLeavingTheBusStopsTheServer() async throws {
        try await withPeripheral { bluez, peripheral in
            bluez.connection.close()
            await peripheral.waitUntilStopped()
            #expect(await peripheral.failure == .bluetoothdStopped)
        }
    }

    @Test func theAdapterPoweringOffStopsTheServer() async throws {
        try await withPeripheral { bluez, peripheral in
            try await bluez.powerOff()
            await peripheral.waitUntilStopped()
            #expect(await peripheral.failure == .poweredOff("hci0"))
        }
    }

    @Test func theAdapterGoingAwayStopsTheServer() async throws {
        try await withPeripheral { bluez, peripheral in
            try await bluez.removeAdapter()
            await peripheral.waitUntilStopped()
            #expect(await peripheral.failure == .adapterRemoved("hci0"))
        }
    }

    /// The first whole SMP frame in `notifications`.
    static func firstFrame(of notifications: AsyncStream<[UInt8]>) async throws -> SMPFrame {
        let frame: SMPFrame? = try await PeripheralWait.within {
            var assembler = SMPFrameAssembler()
            for await bytes in notifications {
                if let frame = try assembler.append(bytes) { return frame }
            }
            return nil
        }
        return try #require(frame, "the notifications ended without a whole frame")
    }
}
