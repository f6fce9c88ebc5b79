import BlueZStandIn
import DBusBinding
import Foundation
import Harness
import Testing
import Transport

/// The stand-in itself, driven by a raw D-Bus client: it must answer as bluetoothd 5.66 does
/// (bluez-dbus.md §1, §8) or the central's tests against it prove nothing.
@Suite(.enabled(if: standInAvailable, standInSkipReason))
struct BlueZStandInTests {
    static let address = "C2:11:40:55:7A:01"
    static let devicePath = BlueZStandIn.devicePath(address: address)
    static let adapter = "org.bluez.Adapter1"
    static let device = "org.bluez.Device1"
    static let characteristic = "org.bluez.GattCharacteristic1"

    @Test func objectTreeHasTheAdapterWithBluetoothdsInterfaceMaps() async throws {
        try await BlueZStandInBench.run { bench in
            let client = try await RawBlueZClient.connect(bench)
            let objects = try await client.managedObjects()
            let adapter = try #require(objects["/org/bluez/hci0"])
            #expect(adapter[Self.adapter]?["Powered"] == .bool(true))
            #expect(adapter[Self.adapter]?["Discovering"] == .bool(false))
            #expect(adapter[Self.adapter]?["Address"] == .string("00:AA:01:00:00:00"))
            #expect(adapter["org.freedesktop.DBus.Introspectable"] == [:])
            #expect(adapter["org.freedesktop.DBus.Properties"] == [:])
            #expect(objects["/org/bluez"]?["org.bluez.AgentManager1"] != nil)
            #expect(objects["/"] == nil)
            await client.close()
        }
    }

    @Test func discoveryIsOneSessionPerClientWithBluezErrors() async throws {
        try await BlueZStandInBench.run { bench in
            try await bench.addTestPeripheral(address: Self.address, name: "sensor-12")
            let client = try await RawBlueZClient.connect(bench)
            let hci0 = "/org/bluez/hci0"
            let wrongType = await client.error(hci0, Self.adapter, "SetDiscoveryFilter", [.properties(["RSSI": .int32(-70)])])
            #expect(wrongType == .remote(name: "org.bluez.Error.InvalidArguments", message: "Invalid arguments in method call"))
            let unknownKey = await client.error(hci0, Self.adapter, "SetDiscoveryFilter", [.properties(["Colour": .string("red")])])
            #expect(unknownKey?.remoteName == "org.bluez.Error.InvalidArguments")
            #expect(await client.error(hci0, Self.adapter, "StopDiscovery")
                == .remote(name: "org.bluez.Error.Failed", message: "No discovery started"))

            _ = try await client.call(hci0, Self.adapter, "StartDiscovery")
            #expect(await client.error(hci0, Self.adapter, "StartDiscovery")
                == .remote(name: "org.bluez.Error.InProgress", message: "Operation already in progress"))
            try await client.waitUntil("the device's InterfacesAdded") { signals in
                signals.contains { $0.interfacesAdded?.object == Self.devicePath }
            }
            let added = try #require(await client.signals.compactMap(\.interfacesAdded).first { $0.object == Self.devicePath })
            let properties = try #require(added.interfaces[Self.device])
            #expect(properties["RSSI"] == .int16(-50))
            #expect(properties["Name"] == .string("sensor-12"))
            #expect(properties["Address"] == .string(Self.address))
            #expect(properties["UUIDs"] == .strings([BlueZTestPeripheral.smpService.uuid.description]))
            #expect(added.interfaces["org.freedesktop.DBus.Properties"] == [:])

            _ = try await client.call(hci0, Self.adapter, "StopDiscovery")
            try await client.waitUntil("RSSI invalidated when discovery ends") { signals in
                signals.contains { $0.propertiesChanged?.path == Self.devicePath && $0.propertiesChanged?.invalidated == ["RSSI"] }
            }
            let discovering = await client.signals.compactMap(\.propertiesChanged)
                .filter { $0.path == hci0 }.compactMap { $0.changed["Discovering"] }
            #expect(discovering == [.bool(true), .bool(false)])
            await client.close()
        }
    }

    @Test func filteredDiscoveryReportsOnlyMatchingDevicesAboveTheFloor() async throws {
        try await BlueZStandInBench.run { bench in
            try await bench.addTestPeripheral(address: "C2:00:00:00:00:01", name: "near", rssi: -50)
            try await bench.addTestPeripheral(address: "C2:00:00:00:00:02", name: "far", rssi: -90)
            try await bench.addTestPeripheral(address: "C2:00:00:00:00:03", name: "other",
                                              services: [ServiceID(short: 0x180D)], rssi: -40)
            let client = try await RawBlueZClient.connect(bench)
            let hci0 = "/org/bluez/hci0"
            _ = try await client.call(hci0, Self.adapter, "SetDiscoveryFilter", [.properties([
                "UUIDs": .strings([BlueZTestPeripheral.smpService.uuid.description]),
                "RSSI": .int16(-70), "Transport": .string("le"), "DuplicateData": .bool(true),
            ])])
            _ = try await client.call(hci0, Self.adapter, "StartDiscovery")
            let named = { @Sendable (signals: [DBusSignal]) -> Set<String> in
                Set(signals.compactMap { $0.interfacesAdded?.interfaces["org.bluez.Device1"]?["Name"] }
                    .compactMap { try? $0.asString() })
            }
            try await client.waitUntil("all three devices heard") { signals in
                signals.compactMap(\.interfacesAdded).filter { $0.object.contains("dev_C2_00") }.count == 3
            }
            // adapter.c creates the object of a device heard during filtered discovery, but gives
            // it neither name nor RSSI unless it matches.
            #expect(named(await client.signals) == ["near"])
            _ = try await client.call(hci0, Self.adapter, "StopDiscovery")
            await client.close()
        }
    }

    @Test func poweredOffAdapterAnswersNotReady() async throws {
        try await BlueZStandInBench.run(adapters: [BlueZStandInAdapter(powered: false)]) { bench in
            let client = try await RawBlueZClient.connect(bench)
            let error = await client.error("/org/bluez/hci0", Self.adapter, "StartDiscovery")
            #expect(error == .remote(name: "org.bluez.Error.NotReady", message: "Resource Not Ready"))
            await client.close()
        }
    }

    /// Connect, then the GATT objects, then ServicesResolved; AcquireWrite hands out a SEQPACKET
    /// fd whose datagrams reach the device one write each, in order.
    @Test func connectResolvesServicesAndAcquireWriteCarriesEveryDatagramInOrder() async throws {
        try await BlueZStandInBench.run { bench in
            let peripheral = try await bench.addTestPeripheral(address: Self.address)
            let client = try await RawBlueZClient.connect(bench)
            let smpPath = try await connectAndResolve(client)
            let reply = try await client.call(smpPath, Self.characteristic, "AcquireWrite", [.properties([:])])
            let fd = try reply.argument(0).asUnixFD()
            #expect(try reply.argument(1).asUInt16() == 498)
            var type: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            #expect(getsockopt(fd.descriptor, SOL_SOCKET, SO_TYPE, &type, &size) == 0)
            #expect(type == Int32(SOCK_SEQPACKET.rawValue))
            #expect(fcntl(fd.descriptor, F_GETFL) & O_NONBLOCK != 0)
            #expect(await client.error(smpPath, Self.characteristic, "WriteValue", [.bytes([1]), .properties([:])])
                == .remote(name: "org.bluez.Error.NotPermitted", message: "Write acquired"))

            let datagrams = (0 ..< 300).map { index in [UInt8](repeating: UInt8(index & 0xFF), count: 200) }
            let result = await BlockingIO.writeAll(fd.descriptor, datagrams)
            #expect(result.written == datagrams.count)
            try await HangGuard.within("every write at the device") { await peripheral.waitForWrites(datagrams.count) }
            #expect(await peripheral.writes.map(\.value) == datagrams)
            #expect(await peripheral.writes.allSatisfy { !$0.withResponse && $0.characteristic == BlueZTestPeripheral.smp })
            await client.close()
        }
    }

    /// The caller's end has a small send buffer and the stand-in reads the next datagram only once
    /// the device side took the last: with a device that takes nothing (its clock never moves),
    /// the socket fills after a few datagrams.
    @Test func aStalledDeviceFillsTheWriteSocket() async throws {
        try await BlueZStandInBench.run(connector: MemoryConnector(clock: .manual())) { bench in
            try await bench.addTestPeripheral(address: Self.address)
            let client = try await RawBlueZClient.connect(bench)
            let smpPath = try await connectAndResolve(client)
            let fd = try await client.call(smpPath, Self.characteristic, "AcquireWrite", [.properties([:])])
                .argument(0).asUnixFD()
            var accepted = 0
            for _ in 0 ..< 200 {
                let datagram = [UInt8](repeating: 7, count: 200)
                let sent = datagram.withUnsafeBytes { send(fd.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if sent < 0 {
                    #expect(errno == EAGAIN)
                    break
                }
                accepted += 1
            }
            #expect(accepted > 0)
            #expect(accepted < 200)
            await client.close()
        }
    }

    /// Link loss from the device's side: Connected and ServicesResolved false in ONE signal, the
    /// acquired sockets hung up, GATT calls "Not connected", and the next connection's
    /// characteristic under another path.
    @Test func linkLossIsOneSignalHangsUpSocketsAndReconnectMovesPaths() async throws {
        try await BlueZStandInBench.run { bench in
            let peripheral = try await bench.addTestPeripheral(address: Self.address)
            let client = try await RawBlueZClient.connect(bench)
            let smpPath = try await connectAndResolve(client)
            let write = try await client.call(smpPath, Self.characteristic, "AcquireWrite", [.properties([:])])
                .argument(0).asUnixFD()
            let notify = try await client.call(smpPath, Self.characteristic, "AcquireNotify", [.properties([:])])
                .argument(0).asUnixFD()
            await peripheral.dropLink()
            try await client.waitUntil("Connected=false") { signals in
                signals.contains { $0.propertiesChanged?.changed["Connected"] == .bool(false) }
            }
            let down = try #require(await client.signals.compactMap(\.propertiesChanged)
                .first { $0.changed["Connected"] == .bool(false) })
            #expect(down.changed == ["Connected": .bool(false), "ServicesResolved": .bool(false)])
            #expect(await BlockingIO.sawHangUp(write.descriptor))
            #expect(await BlockingIO.sawHangUp(notify.descriptor))
            #expect(await client.error(smpPath, Self.characteristic, "ReadValue", [.properties([:])])
                == .remote(name: "org.bluez.Error.Failed", message: "Not connected"))
            #expect(try await client.managedObjects()[smpPath] != nil)

            let again = try await connectAndResolve(client)
            #expect(again != smpPath)
            #expect(try await client.managedObjects()[smpPath] == nil)
            await client.close()
        }
    }

    @Test func writeValueFollowsBluezRules() async throws {
        try await BlueZStandInBench.run(connector: MemoryConnector(clock: .manual())) { bench in
            try await bench.addTestPeripheral(address: Self.address)
            let client = try await RawBlueZClient.connect(bench)
            let smpPath = try await connectAndResolve(client)
            let tooLong = await client.error(smpPath, Self.characteristic, "WriteValue",
                                             [.bytes(Array(repeating: 1, count: 496)), .properties(["type": .string("command")])])
            #expect(tooLong == .remote(name: "org.bluez.Error.Failed", message: "Failed to initiate write"))
            #expect(await client.error(smpPath, Self.characteristic, "WriteValue",
                                       [.bytes([1]), .properties(["offset": .uint32(0)])])?.remoteName
                == "org.bluez.Error.InvalidArguments")
            #expect(await client.error(smpPath, Self.characteristic, "WriteValue",
                                       [.bytes(Array(repeating: 1, count: 495)), .properties(["type": .string("command")])]) == nil)
            // A request that the (stalled) device never answers holds the characteristic.
            let control = try #require(try await client.managedObjects().first { _, interfaces in
                interfaces[Self.characteristic]?["UUID"] == .string(BlueZTestPeripheral.control.uuid.description)
            }?.key)
            let first = Task { await client.error(control, Self.characteristic, "WriteValue", [.bytes([1]), .properties([:])]) }
            // Only once the first is in flight: a second sent before it would itself be the
            // request that is never answered.
            let standIn = try bench.requireStandIn()
            try await HangGuardPolling.until("the first request in flight") {
                await standIn.statistics(address: Self.address).writeRequests == 1
            }
            #expect(await client.error(control, Self.characteristic, "WriteValue", [.bytes([2]), .properties([:])])
                == .remote(name: "org.bluez.Error.InProgress", message: "In Progress"))
            first.cancel()
            await client.close()
        }
    }

    @Test func notificationsArriveAsSignalsOrDatagrams() async throws {
        try await BlueZStandInBench.run { bench in
            let peripheral = try await bench.addTestPeripheral(address: Self.address, echo: true)
            let client = try await RawBlueZClient.connect(bench)
            let smpPath = try await connectAndResolve(client)
            _ = try await client.call(smpPath, Self.characteristic, "StartNotify")
            #expect(await client.error(smpPath, Self.characteristic, "AcquireNotify", [.properties([:])])
                == .remote(name: "org.bluez.Error.InProgress", message: "In Progress"))
            for value: UInt8 in 1 ... 3 {
                _ = try await client.call(smpPath, Self.characteristic, "WriteValue",
                                          [.bytes([value, value]), .properties(["type": .string("command")])])
            }
            try await client.waitUntil("three Value signals") { signals in
                signals.filter { $0.path == smpPath && $0.propertiesChanged?.changed["Value"] != nil }.count == 3
            }
            let values = await client.signals.filter { $0.path == smpPath }.compactMap { $0.propertiesChanged?.changed["Value"] }
            #expect(values == [.bytes([1, 1]), .bytes([2, 2]), .bytes([3, 3])])
            _ = try await client.call(smpPath, Self.characteristic, "StopNotify")

            let battery = try #require(try await client.managedObjects().first { _, interfaces in
                interfaces[Self.characteristic]?["UUID"] == .string(BlueZTestPeripheral.battery.uuid.description)
            }?.key)
            let fd = try await client.call(battery, Self.characteristic, "AcquireNotify", [.properties([:])])
                .argument(0).asUnixFD()
            #expect(await client.error(battery, Self.characteristic, "StartNotify")
                == .remote(name: "org.bluez.Error.NotPermitted", message: "Notify acquired"))
            #expect(await peripheral.notify([42], from: BlueZTestPeripheral.battery))
            #expect(await BlockingIO.readDatagram(fd.descriptor) == [42])
            #expect(try await client.call(battery, Self.characteristic, "ReadValue", [.properties([:])]) == [.bytes([80])])
            await client.close()
        }
    }

    @Test func knobsFailConnectsRefuseAcquireAndMoveTheAddress() async throws {
        let moved = "C2:11:40:55:7A:02"
        let timing = BlueZStandInTiming(connectAttemptTimeout: .milliseconds(200))
        try await BlueZStandInBench.run(timing: timing) { bench in
            let peripheral = try await bench.addTestPeripheral(address: Self.address) { device in
                device.connectFailures = 2
                device.addressAfterReboot = moved
                device.refuseAcquireWrite = .notSupported
            }
            let client = try await RawBlueZClient.connect(bench)
            try await discover(client)
            for _ in 0 ..< 2 {
                #expect(await client.error(Self.devicePath, Self.device, "Connect")
                    == .remote(name: "org.bluez.Error.Failed", message: "le-connection-abort-by-local"))
            }
            let smpPath = try await connectAndResolve(client)
            #expect(await client.error(smpPath, Self.characteristic, "AcquireWrite", [.properties([:])])
                == .remote(name: "org.bluez.Error.NotSupported", message: "Operation is not supported"))

            await peripheral.dropLink()
            try await client.waitUntil("Connected=false") { signals in
                signals.contains { $0.path == Self.devicePath && $0.propertiesChanged?.changed["Connected"] == .bool(false) }
            }
            #expect(await client.error(Self.devicePath, Self.device, "Connect")
                == .remote(name: "org.bluez.Error.Failed", message: "le-connection-abort-by-local"))
            try await discover(client)
            let movedPath = BlueZStandIn.devicePath(address: moved)
            try await client.waitUntil("the device under its new address") { signals in
                signals.contains { $0.interfacesAdded?.object == movedPath }
            }
            _ = try await client.call(movedPath, Self.device, "Connect")
            #expect(await client.error(Self.devicePath, Self.device, "Disconnect") == nil)
            let statistics = try await bench.requireStandIn().statistics(address: Self.address)
            #expect(statistics.connections == 2)
            #expect(statistics.linkLosses == 1)
            #expect(bench.standIn?.problems == [])
            await client.close()
        }
    }

    // MARK: Steps

    private func discover(_ client: RawBlueZClient) async throws {
        _ = try await client.call("/org/bluez/hci0", Self.adapter, "StartDiscovery")
        try await client.waitUntil("the device heard") { signals in
            signals.contains { $0.interfacesAdded?.object.hasPrefix("/org/bluez/hci0/dev_") == true }
        }
        _ = try await client.call("/org/bluez/hci0", Self.adapter, "StopDiscovery")
    }

    /// Discovers the device, connects, waits for ServicesResolved and checks the order bluetoothd
    /// keeps: Connected=true, then the GATT objects, then ServicesResolved=true. Returns the SMP
    /// characteristic's path.
    private func connectAndResolve(_ client: RawBlueZClient) async throws -> String {
        if try await client.managedObjects()[Self.devicePath] == nil { try await discover(client) }
        let before = await client.signals.count
        _ = try await client.call(Self.devicePath, Self.device, "Connect")
        try await client.waitUntil("ServicesResolved=true") { signals in
            signals.dropFirst(before).contains { $0.propertiesChanged?.changed["ServicesResolved"] == .bool(true) }
        }
        let since = Array(await client.signals.dropFirst(before))
        let connected = since.firstIndex { $0.propertiesChanged?.changed["Connected"] == .bool(true) }
        let resolved = since.firstIndex { $0.propertiesChanged?.changed["ServicesResolved"] == .bool(true) }
        let chars = since.indices.filter { since[$0].interfacesAdded?.interfaces[Self.characteristic] != nil }
        #expect(connected != nil)
        #expect(chars.count == 3)
        if let connected, let resolved, let last = chars.last {
            #expect(connected < (chars.first ?? resolved))
            #expect(last < resolved)
        }
        let smp = since.compactMap(\.interfacesAdded).first {
            $0.interfaces[Self.characteristic]?["UUID"] == .string(BlueZTestPeripheral.smp.uuid.description)
        }
        let path = try #require(smp?.object)
        #expect(smp?.interfaces[Self.characteristic]?["MTU"] == .uint16(498))
        #expect(smp?.interfaces[Self.characteristic]?["Flags"] == .strings(["write-without-response", "notify"]))
        return path
    }
}
