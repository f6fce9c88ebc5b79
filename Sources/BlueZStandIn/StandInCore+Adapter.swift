import DBusBinding
import Foundation
import Transport

/// Adapter1 as bluetoothd 5.66 answers it (adapter.c): discovery sessions per client, filters,
/// devices appearing while discovering, RemoveDevice, power.
extension StandInCore {
    func addAdapter(_ spec: BlueZStandInAdapter) {
        let path = StandInName.adapterPath(spec.name)
        adapters[spec.name] = AdapterState(name: spec.name, path: path, address: spec.address.uppercased(),
                                           powered: spec.powered)
        let name = spec.name
        addObject(path, [DBusExportedInterface(name: StandInName.adapter, methods: [
            "StartDiscovery": method(path, signature: "") { core, call in
                try await core.startDiscovery(name, sender: call.sender)
            },
            "StopDiscovery": method(path, signature: "") { core, call in
                try await core.stopDiscovery(name, sender: call.sender)
            },
            "SetDiscoveryFilter": method(path, signature: "a{sv}") { core, call in
                try await core.setDiscoveryFilter(name, sender: call.sender, call.arguments)
            },
            "GetDiscoveryFilters": method(path, signature: "") { _, _ in
                [.strings(["UUIDs", "RSSI", "Pathloss", "Transport", "DuplicateData", "Discoverable", "Pattern"])]
            },
            "RemoveDevice": method(path, signature: "o") { core, call in
                try await core.removeDevice(name, call.arguments)
            },
        ], properties: [
            "Address": .string(spec.address.uppercased()),
            "AddressType": .string("public"),
            "Name": .string("standin-\(spec.name)"),
            "Alias": .string("standin-\(spec.name)"),
            "Class": .uint32(0),
            "Powered": .bool(spec.powered),
            "Discoverable": .bool(false),
            "DiscoverableTimeout": .uint32(180),
            "Pairable": .bool(false),
            "PairableTimeout": .uint32(0),
            "Discovering": .bool(false),
            "UUIDs": .strings([]),
            "Roles": .strings(["central", "peripheral"]),
        ])])
    }

    func startDiscovery(_ name: String, sender: String) async throws -> [DBusValue] {
        guard let adapter = adapters[name] else { throw StandInError.doesNotExist }
        guard adapter.powered else { throw StandInError.notReady }
        // One session per client (adapter.c `start_discovery`: btd_error_busy).
        guard adapter.sessions[sender] == nil else { throw StandInError.busy }
        let filter = adapters[name]?.presetFilters.removeValue(forKey: sender)
        adapters[name]?.sessions[sender] = .some(filter)
        scanStarts[name, default: 0] += 1
        reportedSinceScanStart = reportedSinceScanStart.filter { !$0.hasPrefix(name + "/") }
        if adapter.sessions.isEmpty {
            setProperties(adapter.path, StandInName.adapter, ["Discovering": .bool(true)])
        }
        startTicker()
        let waiters = discoveryWaiters.filter { $0.adapter == name }
        discoveryWaiters.removeAll { $0.adapter == name }
        for waiter in waiters { waiter.continuation.resume() }
        await outbox.flush()
        return []
    }

    /// Returns once some client discovers on `name` (at once if one does).
    func waitUntilDiscovering(_ name: String) async {
        if adapters[name]?.sessions.isEmpty == false { return }
        await withCheckedContinuation { discoveryWaiters.append((name, $0)) }
    }

    func stopDiscovery(_ name: String, sender: String) async throws -> [DBusValue] {
        guard let adapter = adapters[name] else { throw StandInError.doesNotExist }
        guard adapter.powered else { throw StandInError.notReady }
        // The client's filter goes with its session (adapter.c `discovery_stop` frees the client).
        guard adapters[name]?.sessions.removeValue(forKey: sender) != nil else {
            throw StandInError.failed("No discovery started")
        }
        discoverySessionEnded(name)
        await outbox.flush()
        return []
    }

    /// After a session ended: when it was the last, Discovering goes false and the RSSI of every
    /// device heard is invalidated (adapter.c `discovery_cleanup`).
    func discoverySessionEnded(_ name: String) {
        guard let adapter = adapters[name], adapter.sessions.isEmpty else { return }
        guard property(adapter.path, StandInName.adapter, "Discovering") == .bool(true) else { return }
        setProperties(adapter.path, StandInName.adapter, ["Discovering": .bool(false)])
        for path in adapter.found.sorted() where devices[path]?.rssi != nil {
            devices[path]?.rssi = nil
            setProperties(path, StandInName.device, [:], invalidated: ["RSSI"])
        }
        adapters[name]?.found = []
    }

    func setDiscoveryFilter(_ name: String, sender: String, _ arguments: [DBusValue]) throws -> [DBusValue] {
        guard let adapter = adapters[name] else { throw StandInError.doesNotExist }
        guard adapter.powered else { throw StandInError.notReady }
        let filter = try StandInDiscoveryFilter.parse(arguments)
        if adapter.sessions[sender] != nil {
            adapters[name]?.sessions[sender] = .some(filter)
        } else {
            adapters[name]?.presetFilters[sender] = filter
        }
        return []
    }

    func removeDevice(_ name: String, _ arguments: [DBusValue]) async throws -> [DBusValue] {
        guard let adapter = adapters[name] else { throw StandInError.doesNotExist }
        guard case .objectPath(let path)? = arguments.first else { throw StandInError.invalidArguments }
        guard let device = devices[path], device.adapter == name else { throw StandInError.doesNotExist }
        guard adapter.powered else { throw StandInError.notReady }
        // Connected: disconnect first, reply once the link is down (adapter.c `remove_device`).
        if device.connection != nil || device.pendingConnect != nil {
            _ = await disconnect(path)
        }
        if let id = device.peripheral { peripherals[id]?.stuckUntilRemoved = nil }
        stats(device.owner) { $0.removeDeviceCalls += 1 }
        forgetDevice(path)
        await outbox.flush()
        return []
    }

    /// Removes a device object and its GATT objects (children first), and its bond (adapter.c
    /// `btd_adapter_remove_device` removes the stored keys): heard again, it is a fresh Device1.
    func forgetDevice(_ path: String) {
        abortPairing(path)
        bonds[path] = nil
        guard let device = devices.removeValue(forKey: path) else { return }
        for gattPath in device.gattPaths.reversed() {
            characteristics[gattPath] = nil
            removeObject(gattPath)
        }
        for name in adapters.keys { adapters[name]?.found.remove(path) }
        removeObject(path)
    }

    /// Powering off drops every link and ends discovery; powering on changes only the property.
    func setPowered(_ powered: Bool, adapter name: String) async {
        guard let adapter = adapters[name], adapter.powered != powered else { return }
        adapters[name]?.powered = powered
        setProperties(adapter.path, StandInName.adapter, ["Powered": .bool(powered)])
        guard !powered else { return }
        adapters[name]?.sessions = [:]
        adapters[name]?.presetFilters = [:]
        discoverySessionEnded(name)
        for path in devices.keys.sorted() where devices[path]?.adapter == name {
            if devices[path]?.connection != nil { _ = await disconnect(path, counted: false) }
        }
        await outbox.flush()
    }

    // MARK: Hearing advertisements

    func startTicker() {
        guard discoveryTicker == nil else { return }
        let interval = timing.advertisingInterval
        discoveryTicker = Task { [weak self] in
            while let self, await self.askWhoIsOnAir(), await self.hearAdvertisements() {
                try? await Task.sleep(for: interval)
            }
        }
    }

    /// Asks each device with an `onAir` closure whether its model advertises now, and each with a
    /// `nameOnAir` closure under which name; always true (the ticker's loop goes on to
    /// `hearAdvertisements`).
    func askWhoIsOnAir() async -> Bool {
        for (id, onAir) in peripherals.compactMap({ entry in entry.value.spec.onAir.map { (entry.key, $0) } }) {
            let now = await onAir()
            peripherals[id]?.onAirNow = now
        }
        for (id, nameOnAir) in peripherals.compactMap({ entry in entry.value.spec.nameOnAir.map { (entry.key, $0) } }) {
            if let name = await nameOnAir() { peripherals[id]?.spec.advertisement.name = name }
        }
        return true
    }

    /// Every advertising device is heard once by each discovering adapter. False when nobody
    /// discovers any more (the ticker then ends).
    func hearAdvertisements() -> Bool {
        let discovering = adapters.values.filter { !$0.sessions.isEmpty && $0.powered }
        guard !discovering.isEmpty, !stopped else {
            discoveryTicker = nil
            return false
        }
        for adapter in discovering {
            for peripheral in peripherals.values.sorted(by: { $0.id < $1.id })
                where peripheral.spec.adapter == adapter.name && peripheral.advertising && peripheral.onAirNow != false
                    && !isConnected(peripheral.id) {
                let missed = peripheral.spec.scanStartsMissed, last = peripheral.spec.lastScanStartHeard
                if missed != nil || last != nil {
                    // Once per scan start, not at all for the first `missed` starts nor after the `last`.
                    let key = "\(adapter.name)/\(peripheral.id)"
                    let start = scanStarts[adapter.name, default: 0]
                    guard start > missed ?? 0, start <= last ?? .max, reportedSinceScanStart.insert(key).inserted else {
                        continue
                    }
                }
                heard(peripheral, by: adapter)
            }
        }
        return true
    }

    func isConnected(_ peripheral: Int) -> Bool {
        devices.values.contains { $0.peripheral == peripheral && ($0.connection != nil || $0.pendingConnect != nil) }
    }

    /// adapter.c `btd_adapter_update_found_device`, for one advertising report.
    private func heard(_ peripheral: PeripheralState, by adapter: AdapterState) {
        let advertisement = peripheral.spec.advertisement
        let address = peripheral.address
        let path = StandInName.devicePath(adapter: adapter.name, address: address)
        let filters = Array(adapter.sessions.values)
        let filtered = filters.contains { $0 != nil }
        var discoverable = filtered || advertisement.discoverable
        if let allowed = StandInDiscoveryFilter.patternAllows(address: address, name: advertisement.name, filters: filters) {
            discoverable = allowed
        }
        let matches = discoverable && StandInDiscoveryFilter.reports(services: advertisement.services,
                                                                     rssi: advertisement.rssi, filters: filters)
        if devices[path] == nil {
            guard discoverable else { return }
            createDevice(path: path, address: address, adapter: adapter, peripheral: peripheral.id,
                         heard: matches ? advertisement : nil)
            if matches { adapters[adapter.name]?.found.insert(path) }
            return
        }
        guard matches else { return }
        var changed: [String: DBusValue] = [:]
        if let name = advertisement.name, property(path, StandInName.device, "Name") != .string(name) {
            changed["Name"] = .string(name)
            changed["Alias"] = .string(name)
        }
        let uuids = mergedUUIDs(path, advertisement.services)
        if property(path, StandInName.device, "UUIDs") != uuids { changed["UUIDs"] = uuids }
        // device.c `device_set_rssi_with_delta`: filtered discovery reports every change, else
        // only changes of 8 dBm or more (or from/to none).
        let delta = devices[path]?.rssi.map { abs(Int($0) - Int(advertisement.rssi)) }
        if delta.map({ $0 > 0 && $0 >= (filtered ? 0 : 8) }) ?? true {
            devices[path]?.rssi = advertisement.rssi
            changed["RSSI"] = .int16(advertisement.rssi)
        }
        if !advertisement.manufacturerData.isEmpty {
            let data = Self.manufacturerData(advertisement.manufacturerData)
            if property(path, StandInName.device, "ManufacturerData") != data { changed["ManufacturerData"] = data }
        }
        adapters[adapter.name]?.found.insert(path)
        if !changed.isEmpty { setProperties(path, StandInName.device, changed) }
    }

    private func mergedUUIDs(_ path: String, _ services: [ServiceID]) -> DBusValue {
        var known = (try? property(path, StandInName.device, "UUIDs")?.asStrings()) ?? []
        for service in services where !known.contains(service.uuid.description) {
            known.append(service.uuid.description)
        }
        return .strings(known)
    }

    static func manufacturerData(_ data: [UInt16: [UInt8]]) -> DBusValue {
        .dict(keySignature: "q", valueSignature: "v",
              data.sorted { $0.key < $1.key }.map { DBusDictEntry(.uint16($0.key), .variant(.bytes($0.value))) })
    }

    /// A new Device1. When the report did not match the filters (`heard` nil), the object still
    /// appears, with neither name nor RSSI nor UUIDs, as adapter.c creates it before filtering.
    /// `storedName`: a bonded device loaded from storage (`setBonded`) keeps its name.
    func createDevice(path: String, address: String, adapter: AdapterState, peripheral: Int,
                      heard advertisement: BlueZStandInAdvertisement?, storedName: String? = nil) {
        var state = DeviceState(path: path, address: address, adapter: adapter.name, peripheral: peripheral,
                                owner: peripheral)
        var properties: [String: DBusValue] = [
            "Address": .string(address),
            "AddressType": .string(peripherals[peripheral]?.spec.advertisement.addressType ?? "random"),
            "Alias": .string(address.replacingOccurrences(of: ":", with: "-")),
            "Paired": .bool(bonds[path] != nil),
            "Bonded": .bool(bonds[path] != nil),
            "Trusted": .bool(false),
            "Blocked": .bool(false),
            "LegacyPairing": .bool(false),
            "Connected": .bool(false),
            "UUIDs": .strings([]),
            "Adapter": .objectPath(adapter.path),
            "ServicesResolved": .bool(false),
        ]
        if let storedName {
            properties["Name"] = .string(storedName)
            properties["Alias"] = .string(storedName)
        }
        if let advertisement {
            if let name = advertisement.name {
                properties["Name"] = .string(name)
                properties["Alias"] = .string(name)
            }
            properties["UUIDs"] = .strings(advertisement.services.map(\.uuid.description))
            properties["RSSI"] = .int16(advertisement.rssi)
            state.rssi = advertisement.rssi
            if !advertisement.manufacturerData.isEmpty {
                properties["ManufacturerData"] = Self.manufacturerData(advertisement.manufacturerData)
            }
        }
        devices[path] = state
        addObject(path, [deviceInterface(path, properties: properties)])
    }
}
