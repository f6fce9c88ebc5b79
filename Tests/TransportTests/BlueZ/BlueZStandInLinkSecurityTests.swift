import BlueZStandIn
import DBusBinding
import Foundation
import Harness
import Testing
import Transport

/// Bonds and link security in the stand-in: what GATT calls meet on a link below a protected
/// characteristic's requirement, and what a bond changes (bluez-dbus.md §9).
@Suite(.enabled(if: standInAvailable, standInSkipReason))
struct BlueZStandInLinkSecurityTests: StandInPairingSuite {
    @Test func bondedDeviceReconnectsEncryptedWithoutAnyAgent() async throws {
        try await BlueZStandInBench.run(timing: Self.timing) { bench in
            let peripheral = try await addSecureDevice(bench, .authenticate)
            let standIn = try bench.requireStandIn()
            await standIn.setBonded(address: Self.address, authenticated: true)
            let client = try await RawBlueZClient.connect(bench)
            // Stored bonds are exported at once, Paired and Bonded, before any scan.
            let stored = try await client.managedObjects()[Self.devicePath]?[Self.device]
            #expect(stored?["Paired"] == .bool(true))
            #expect(stored?["Bonded"] == .bool(true))
            try await connect(client)
            #expect(await standIn.linkSecurity(address: Self.address) == .authenticated)
            let smp = try await smpPath(client)
            #expect(await client.error(smp, Self.characteristic, "StartNotify") == nil)
            #expect(await peripheral.subscriptions == [BlueZTestPeripheral.smp])
            #expect(await standIn.statistics(address: Self.address).agentCalls == [])
            await client.close()
        }
    }

    @Test func startNotifyWithoutDefaultAgentFailsWithATTErrorAndDropsTheLink() async throws {
        try await BlueZStandInBench.run(timing: Self.timing) { bench in
            let peripheral = try await addSecureDevice(bench, .authenticate)
            let client = try await RawBlueZClient.connect(bench)
            try await connect(client)
            let smp = try await smpPath(client)
            #expect(await client.error(smp, Self.characteristic, "StartNotify")
                == .remote(name: "org.bluez.Error.Failed", message: "Operation failed with ATT error: 0x0e"))
            try await waitUntilDisconnected(client)
            #expect(await peripheral.subscriptions == [])
            #expect(try await bench.requireStandIn().bond(address: Self.address) == nil)
            await client.close()
        }
    }

    /// BlueZ raises security by itself with the DEFAULT agent, not the caller's (device.c
    /// `new_auth` without a bonding request).
    @Test func defaultAgentIsAskedWhenAStartNotifyNeedsSecurity() async throws {
        try await BlueZStandInBench.run(timing: Self.timing) { bench in
            let peripheral = try await addSecureDevice(bench, .authenticate)
            let other = try await RawBlueZClient.connect(bench)
            let defaultAgent = try await StandInTestAgent.register(on: other.connection, capability: "KeyboardOnly",
                                                                   answer: .passkey(Self.passkey))
            let client = try await RawBlueZClient.connect(bench)
            let own = try await StandInTestAgent.register(on: client.connection, capability: "KeyboardOnly",
                                                          answer: .passkey(1))
            try await connect(client)
            let smp = try await smpPath(client)
            #expect(await client.error(smp, Self.characteristic, "StartNotify") == nil)
            #expect(await defaultAgent.calls == ["RequestPasskey"])
            #expect(await own.calls == [])
            #expect(await peripheral.subscriptions == [BlueZTestPeripheral.smp])
            #expect(try await bench.requireStandIn().bond(address: Self.address) == .authenticated)
            await client.close()
            await other.close()
        }
    }

    @Test func acquireNotifyOnAnInsecureLinkIsNeverAnswered() async throws {
        try await BlueZStandInBench.run(timing: Self.timing) { bench in
            try await addSecureDevice(bench, .encrypt)
            let client = try await RawBlueZClient.connect(bench)
            try await connect(client)
            let smp = try await smpPath(client)
            do {
                _ = try await client.connection.call(destination: "org.bluez", path: smp, interface: Self.characteristic,
                                                     member: "AcquireNotify", arguments: [.properties([:])],
                                                     timeout: .milliseconds(300))
                Issue.record("AcquireNotify was answered")
            } catch let error as DBusError {
                guard case .timedOut = error else {
                    Issue.record("AcquireNotify failed with \(error) instead of no reply")
                    return
                }
            }
            let statistics = try await bench.requireStandIn().statistics(address: Self.address)
            #expect(statistics.acquireNotifyWhileInsecure == 1)
            #expect(try await client.managedObjects()[Self.devicePath]?[Self.device]?["Connected"] == .bool(true))
            await client.close()
        }
    }

    @Test func justWorksBondCannotSatisfyAnAuthenticatedCharacteristic() async throws {
        try await BlueZStandInBench.run(timing: Self.timing) { bench in
            // No passkey on the device: Just Works whatever the agent.
            try await addSecureDevice(bench, .authenticate, passkey: nil)
            let client = try await RawBlueZClient.connect(bench)
            let agent = try await StandInTestAgent.register(on: client.connection, capability: "KeyboardOnly",
                                                            answer: .passkey(Self.passkey))
            try await connect(client)
            _ = try await client.call(Self.devicePath, Self.device, "Pair")
            let standIn = try bench.requireStandIn()
            #expect(await standIn.bond(address: Self.address) == .encrypted)
            #expect(await agent.calls == [])
            let smp = try await smpPath(client)
            #expect(await client.error(smp, Self.characteristic, "StartNotify")
                == .remote(name: "org.bluez.Error.NotPermitted", message: "Not paired"))
            #expect(try await client.managedObjects()[Self.devicePath]?[Self.device]?["Connected"] == .bool(true))
            await client.close()
        }
    }

    @Test func writeCommandsOnAnInsecureLinkAreAcceptedButDropped() async throws {
        try await BlueZStandInBench.run(timing: Self.timing) { bench in
            let peripheral = try await addSecureDevice(bench, .encrypt)
            let client = try await RawBlueZClient.connect(bench)
            try await connect(client)
            let smp = try await smpPath(client)
            #expect(await client.error(smp, Self.characteristic, "WriteValue",
                                       [.bytes([1, 2]), .properties(["type": .string("command")])]) == nil)
            let fd = try await client.call(smp, Self.characteristic, "AcquireWrite", [.properties([:])])
                .argument(0).asUnixFD()
            #expect(await BlockingIO.writeAll(fd.descriptor, [[3, 4]]).written == 1)
            let standIn = try bench.requireStandIn()
            try await HangGuardPolling.until("both writes dropped") {
                await standIn.statistics(address: Self.address).insecureWritesDropped == 2
            }
            #expect(await peripheral.writes == [])
            #expect(await standIn.statistics(address: Self.address).fdWrites == 0)
            await client.close()
        }
    }

    @Test func removeDeviceForgetsTheBond() async throws {
        try await BlueZStandInBench.run(timing: Self.timing) { bench in
            try await addSecureDevice(bench, .authenticate)
            let client = try await RawBlueZClient.connect(bench)
            _ = try await StandInTestAgent.register(on: client.connection, capability: "KeyboardOnly",
                                                    answer: .passkey(Self.passkey))
            try await connect(client)
            _ = try await client.call(Self.devicePath, Self.device, "Pair")
            let standIn = try bench.requireStandIn()
            #expect(await standIn.bond(address: Self.address) == .authenticated)
            _ = try await client.call("/org/bluez/hci0", "org.bluez.Adapter1", "RemoveDevice", [.objectPath(Self.devicePath)])
            #expect(await standIn.bond(address: Self.address) == nil)
            let before = await client.signals.count
            try await discover(client)
            let added = await client.signals.dropFirst(before).compactMap(\.interfacesAdded)
                .first { $0.object == Self.devicePath }
            #expect(added?.interfaces[Self.device]?["Paired"] == .bool(false))
            #expect(added?.interfaces[Self.device]?["Bonded"] == .bool(false))
            await client.close()
        }
    }
}
