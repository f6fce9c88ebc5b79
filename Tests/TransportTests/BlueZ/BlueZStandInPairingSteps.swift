import BlueZStandIn
import DBusBinding
import Foundation
import Testing
import Transport

/// What the stand-in's pairing and link-security suites share: one secure device, a raw client's
/// steps to reach it.
protocol StandInPairingSuite {}

let standInTestPasskey: UInt32 = 123_456

extension StandInPairingSuite {
    static var address: String { "C2:11:40:55:7A:01" }
    static var devicePath: String { BlueZStandIn.devicePath(address: address) }
    static var device: String { "org.bluez.Device1" }
    static var characteristic: String { "org.bluez.GattCharacteristic1" }
    /// The device's fixed passkey.
    static var passkey: UInt32 { standInTestPasskey }
    /// A short agent timeout, so a silent agent ends a test quickly.
    static var timing: BlueZStandInTiming { BlueZStandInTiming(agentTimeout: .milliseconds(300)) }

    /// A `BlueZTestPeripheral` at `address` whose SMP characteristic needs `security`.
    @discardableResult
    func addSecureDevice(_ bench: BlueZStandInBench, _ security: BlueZStandInSecurity,
                         passkey: UInt32? = standInTestPasskey) async throws -> BlueZTestPeripheral {
        try await bench.addTestPeripheral(address: Self.address) { device in
            device.security = security
            device.passkey = passkey
        }
    }

    func discover(_ client: RawBlueZClient) async throws {
        let before = await client.signals.count
        _ = try await client.call("/org/bluez/hci0", "org.bluez.Adapter1", "StartDiscovery")
        try await client.waitUntil("the device heard") { signals in
            signals.dropFirst(before).contains { $0.interfacesAdded?.object == Self.devicePath }
        }
        _ = try await client.call("/org/bluez/hci0", "org.bluez.Adapter1", "StopDiscovery")
    }

    /// Discovers (unless known), connects and waits for ServicesResolved.
    func connect(_ client: RawBlueZClient) async throws {
        if try await client.managedObjects()[Self.devicePath] == nil { try await discover(client) }
        let before = await client.signals.count
        _ = try await client.call(Self.devicePath, Self.device, "Connect")
        try await client.waitUntil("ServicesResolved=true") { signals in
            signals.dropFirst(before).contains {
                $0.path == Self.devicePath && $0.propertiesChanged?.changed["ServicesResolved"] == .bool(true)
            }
        }
    }

    func waitUntilDisconnected(_ client: RawBlueZClient) async throws {
        try await client.waitUntil("Connected=false") { signals in
            signals.contains { $0.path == Self.devicePath && $0.propertiesChanged?.changed["Connected"] == .bool(false) }
        }
    }

    /// The SMP characteristic of the current connection.
    func smpPath(_ client: RawBlueZClient) async throws -> String {
        let uuid = DBusValue.string(BlueZTestPeripheral.smp.uuid.description)
        return try #require(try await client.managedObjects().first { path, interfaces in
            path.hasPrefix(Self.devicePath + "/") && interfaces[Self.characteristic]?["UUID"] == uuid
        }?.key)
    }
}
