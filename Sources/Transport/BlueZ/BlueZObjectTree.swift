import DBusBinding

/// bluetoothd's object tree as this process last heard it: path → interface → property → value.
///
/// A pure value: it is built from `GetManagedObjects` and kept current by applying
/// InterfacesAdded/Removed and PropertiesChanged, in arrival order; nothing here does I/O. Decoding
/// trusts no shape: an entry of the wrong type is skipped, a signal that is not what it claims is
/// ignored, and the typed views (`BlueZObjectTree+Views.swift`) treat a wrongly typed property as
/// absent. Nothing traps on what bluetoothd (or an impostor on the bus) sends.
struct BlueZObjectTree: Sendable, Equatable {
    typealias Properties = [String: DBusValue]
    typealias Interfaces = [String: Properties]

    private(set) var objects: [String: Interfaces] = [:]
    /// How many PropertiesChanged carried Device1's Connected, per device path: a report arrived
    /// even when it repeated the value we hold (see `connectedReports(of:)`).
    private var connectedReportCounts: [String: Int] = [:]

    init() {}

    init(objects: [String: Interfaces]) {
        self.objects = objects
    }

    /// The tree of a `GetManagedObjects` reply (`a{oa{sa{sv}}}`); malformed entries are skipped,
    /// a reply of another type gives an empty tree.
    init(managedObjects: DBusValue) {
        guard case .dict(_, _, let entries) = managedObjects else { return }
        for entry in entries {
            guard case .objectPath(let path) = entry.key else { continue }
            objects[path] = Self.decodeInterfaces(entry.value)
        }
    }

    /// What a signal changed, for observers that care about one object.
    enum Change: Sendable, Equatable {
        case added(path: String, interfaces: [String])
        case removed(path: String, interfaces: [String])
        case properties(path: String, interface: String, changed: Properties, invalidated: [String])
    }

    /// Applies one signal from bluetoothd; returns what changed, nil for a signal that is not one
    /// of the three (or is malformed). A PropertiesChanged for an object or interface we do not know
    /// is ignored: the object appears whole through InterfacesAdded, never piecemeal.
    mutating func apply(_ signal: DBusSignal) -> Change? {
        switch (signal.interface, signal.member) {
        case (DBusStandardInterface.objectManager, "InterfacesAdded"):
            guard case .objectPath(let path)? = signal.arguments.first, signal.arguments.count >= 2 else { return nil }
            let interfaces = Self.decodeInterfaces(signal.arguments[1])
            addInterfaces(interfaces, at: path)
            return .added(path: path, interfaces: interfaces.keys.sorted())
        case (DBusStandardInterface.objectManager, "InterfacesRemoved"):
            guard case .objectPath(let path)? = signal.arguments.first, signal.arguments.count >= 2,
                  case .array(_, let values) = signal.arguments[1] else { return nil }
            let names = values.compactMap { value -> String? in
                if case .string(let name) = value { return name }
                return nil
            }
            removeInterfaces(names, at: path)
            return .removed(path: path, interfaces: names)
        case (DBusStandardInterface.properties, "PropertiesChanged"):
            guard signal.arguments.count >= 2, case .string(let interface) = signal.arguments[0] else { return nil }
            let changed = Self.decodeProperties(signal.arguments[1])
            var invalidated: [String] = []
            if signal.arguments.count >= 3, case .array(_, let values) = signal.arguments[2] {
                invalidated = values.compactMap { value -> String? in
                    if case .string(let name) = value { return name }
                    return nil
                }
            }
            guard changeProperties(at: signal.path, interface: interface, changed: changed,
                                   invalidated: invalidated) else { return nil }
            return .properties(path: signal.path, interface: interface, changed: changed, invalidated: invalidated)
        default:
            return nil
        }
    }

    /// Adds (or replaces) interfaces of an object; properties of an interface already known merge.
    mutating func addInterfaces(_ interfaces: Interfaces, at path: String) {
        var object = objects[path] ?? [:]
        for (name, properties) in interfaces {
            object[name, default: [:]].merge(properties) { _, new in new }
        }
        objects[path] = object
    }

    /// Removes interfaces; the object goes when none is left.
    mutating func removeInterfaces(_ names: [String], at path: String) {
        guard var object = objects[path] else { return }
        for name in names { object[name] = nil }
        objects[path] = object.isEmpty ? nil : object
    }

    /// Updates properties of a known object's known interface; false when either is unknown.
    @discardableResult
    mutating func changeProperties(at path: String, interface: String, changed: Properties,
                                   invalidated: [String]) -> Bool {
        guard objects[path]?[interface] != nil else { return false }
        objects[path]?[interface]?.merge(changed) { _, new in new }
        for name in invalidated { objects[path]?[interface]?[name] = nil }
        if interface == BlueZNames.device, changed["Connected"] != nil { connectedReportCounts[path, default: 0] += 1 }
        return true
    }

    /// How many times bluetoothd has reported the device's Connected so far. When bluetoothd made
    /// a link without saying so (`BlueZConnector+Establish`), its later Connected=false repeats
    /// the value we hold; only this count moving shows that the link went.
    func connectedReports(of path: String) -> Int {
        connectedReportCounts[path] ?? 0
    }

    /// Forgets everything, e.g. when bluetoothd left the bus (its objects die with it, unannounced).
    mutating func removeAll() {
        objects = [:]
        connectedReportCounts = [:]
    }

    /// The paths carrying `interface`, sorted (BlueZ's GATT paths sort in handle order: 4 hex digits).
    func paths(with interface: String) -> [String] {
        objects.compactMap { $0.value[interface] == nil ? nil : $0.key }.sorted()
    }

    // MARK: - Tolerant decoding

    /// `a{sa{sv}}`, skipping entries of the wrong type.
    static func decodeInterfaces(_ value: DBusValue) -> Interfaces {
        guard case .dict(_, _, let entries) = value else { return [:] }
        var result: Interfaces = [:]
        for entry in entries {
            guard case .string(let name) = entry.key else { continue }
            result[name] = decodeProperties(entry.value)
        }
        return result
    }

    /// `a{sv}` with variants unwrapped, skipping entries of the wrong type.
    static func decodeProperties(_ value: DBusValue) -> Properties {
        guard case .dict(_, _, let entries) = value else { return [:] }
        var result: Properties = [:]
        for entry in entries {
            guard case .string(let name) = entry.key, case .variant(let inner) = entry.value else { continue }
            result[name] = inner
        }
        return result
    }
}
