import BlueZStandIn
import Foundation
import Testing
import Transport

/// Pairing, bonds and link security in the stand-in, driven by a raw D-Bus client with its own
/// agent: they must answer as bluetoothd 5.66 does (bluez-dbus.md §9) for the central's pairing
/// tests to mean anything.
@Suite(.enabled(if: standInAvailable, standInSkipReason))
struct BlueZStandInPairingTests {
    static let address = "C2:11:40:55:7A:01"
    static let devicePath = BlueZStandIn.devicePath(address: address)
    static let device = "org.bluez.Device1"
    static let characteristic = "org.bluez.GattCharacteristic1"
    static let passkey: UInt32 = 123_456
    static let timing = BlueZStandInTiming(agentTimeout: .milliseconds(300))

    @Test func correctPasskeyPairsBondsAndAuthenticatesTheLink() async throws {
        try await BlueZStandInBench.run(timing: Self.timing) { bench in
            try await addSecureDevice(bench, .authenticate)
            let client = try await RawBlueZClient.connect(bench)
            let agent = try await StandInTestAgent.register(on: client.connection, capability: "KeyboardOnly",
                                                            answer: .passkey(Self.passkey))
            try await discover(client)
            // Not connected: Pair connects first.
            _ = try await client.call(Self.devicePath, Self.device, "Pair")
            try await client.waitUntil("Paired=true") { signals in
                signals.contains { $0.path == Self.devicePath && $0.propertiesChanged?.changed["Paired"] == .bool(true) }
            }
            let changes = await client.signals.filter { $0.path == Self.devicePath }.compactMap(\.propertiesChanged)
            #expect(changes.contains { $0.changed["Bonded"] == .bool(true) })
            #expect(changes.contains { $0.changed["Connected"] == .bool(true) })
            #expect(await agent.calls == ["RequestPasskey"])
            let standIn = try bench.requireStandIn()
            #expect(await standIn.bond(address: Self.address) == .authenticated)
            #expect(await standIn.linkSecurity(address: Self.address) == .authenticated)
            #expect(await client.error(Self.devicePath, Self.device, "Pair")
                == .remote(name: "org.bluez.Error.AlreadyExists", message: "Already Exists"))
            try await client.waitUntil("ServicesResolved=true") { signals in
                signals.contains {
                    $0.path == Self.devicePath && $0.propertiesChanged?.changed["ServicesResolved"] == .bool(true)
                }
            }
            let smp = try await smpPath(client)
            #expect(await client.error(smp, Self.characteristic, "StartNotify") == nil)
            let statistics = await standIn.statistics(address: Self.address)
            #expect(statistics.pairCalls == 2)
            #expect(statistics.agentCalls == ["RequestPasskey"])
            #expect(statistics.connectCalls == 0)
            #expect(standIn.problems == [])
            await client.close()
        }
    }

    @Test func wrongPasskeyFailsAuthenticationAndDropsTheLink() async throws {
        try await BlueZStandInBench.run(timing: Self.timing) { bench in
            try await addSecureDevice(bench, .authenticate)
            let client = try await RawBlueZClient.connect(bench)
            _ = try await StandInTestAgent.register(on: client.connection, capability: "KeyboardOnly", answer: .passkey(999_999))
            try await connect(client)
            #expect(await client.error(Self.devicePath, Self.device, "Pair")
                == .remote(name: "org.bluez.Error.AuthenticationFailed", message: "Authentication Failed"))
            try await waitUntilDisconnected(client)
            #expect(try await bench.requireStandIn().bond(address: Self.address) == nil)
            #expect(try await client.managedObjects()[Self.devicePath]?[Self.device]?["Paired"] == .bool(false))
            await client.close()
        }
    }

    @Test func agentAnswersMapToBluezPairErrors() async throws {
        let cases: [(StandInTestAgent.Answer, DBusError)] = [
            (.reject, .remote(name: "org.bluez.Error.AuthenticationRejected", message: "Authentication Rejected")),
            (.cancel, .remote(name: "org.bluez.Error.AuthenticationCanceled", message: "Authentication Canceled")),
            (.silence, .remote(name: "org.bluez.Error.AuthenticationTimeout", message: "Authentication Timeout")),
        ]
        for (answer, expected) in cases {
            try await BlueZStandInBench.run(timing: Self.timing) { bench in
                try await addSecureDevice(bench, .authenticate)
                let client = try await RawBlueZClient.connect(bench)
                let agent = try await StandInTestAgent.register(on: client.connection, capability: "KeyboardOnly",
                                                                answer: answer)
                try await connect(client)
                #expect(await client.error(Self.devicePath, Self.device, "Pair") == expected)
                try await waitUntilDisconnected(client)
                let calls = try await bench.requireStandIn().statistics(address: Self.address).agentCalls
                if case .silence = answer {
                    // No reply in time: bluetoothd cancels the request at the agent.
                    #expect(calls == ["RequestPasskey", "Cancel"])
                    try await agent.waitForCalls(2)
                } else {
                    #expect(calls == ["RequestPasskey"])
                }
                await agent.release()
                await client.close()
            }
        }
    }

    /// §9: a KeyboardOnly device with a fixed passkey and an initiator that can display: the
    /// initiator is asked to display a random number, which the device cannot match.
    @Test func displayingAgentIsShownAPasskeyThatCannotMatch() async throws {
        try await BlueZStandInBench.run(timing: Self.timing) { bench in
            try await addSecureDevice(bench, .authenticate)
            let client = try await RawBlueZClient.connect(bench)
            let agent = try await StandInTestAgent.register(on: client.connection, capability: "KeyboardDisplay",
                                                            answer: .passkey(Self.passkey))
            try await connect(client)
            #expect(await client.error(Self.devicePath, Self.device, "Pair")
                == .remote(name: "org.bluez.Error.AuthenticationFailed", message: "Authentication Failed"))
            try await agent.waitForCalls(1)
            #expect(await agent.calls == ["DisplayPasskey"])
            await client.close()
        }
    }

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

    @Test func agentManagerFollowsAgentC() async throws {
        try await BlueZStandInBench.run(timing: Self.timing) { bench in
            let client = try await RawBlueZClient.connect(bench)
            let manager = "org.bluez.AgentManager1"
            #expect(await client.error("/org/bluez", manager, "RegisterAgent", [.objectPath("/a"), .string("Telepathy")])
                == .remote(name: "org.bluez.Error.InvalidArguments", message: "Invalid arguments in method call"))
            #expect(await client.error("/org/bluez", manager, "UnregisterAgent", [.objectPath("/a")])
                == .remote(name: "org.bluez.Error.DoesNotExist", message: "Does Not Exist"))
            #expect(await client.error("/org/bluez", manager, "RegisterAgent", [.objectPath("/a"), .string("")]) == nil)
            #expect(await client.error("/org/bluez", manager, "RegisterAgent", [.objectPath("/b"), .string("KeyboardOnly")])
                == .remote(name: "org.bluez.Error.AlreadyExists", message: "Already Exists"))
            #expect(await client.error("/org/bluez", manager, "RequestDefaultAgent", [.objectPath("/b")])
                == .remote(name: "org.bluez.Error.DoesNotExist", message: "Does Not Exist"))
            #expect(await client.error("/org/bluez", manager, "RequestDefaultAgent", [.objectPath("/a")]) == nil)
            #expect(await client.error("/org/bluez", manager, "UnregisterAgent", [.objectPath("/a")]) == nil)
            #expect(await client.error("/org/bluez", manager, "UnregisterAgent", [.objectPath("/a")])
                == .remote(name: "org.bluez.Error.DoesNotExist", message: "Does Not Exist"))
            await client.close()
        }
    }

    @Test func cancelPairingEndsAPairWaitingForTheAgent() async throws {
        try await BlueZStandInBench.run(timing: BlueZStandInTiming(agentTimeout: .seconds(30))) { bench in
            try await addSecureDevice(bench, .authenticate)
            let client = try await RawBlueZClient.connect(bench)
            let agent = try await StandInTestAgent.register(on: client.connection, capability: "KeyboardOnly",
                                                            answer: .silence)
            try await connect(client)
            #expect(await client.error(Self.devicePath, Self.device, "CancelPairing")
                == .remote(name: "org.bluez.Error.DoesNotExist", message: "Does Not Exist"))
            let pair = Task { await client.error(Self.devicePath, Self.device, "Pair") }
            try await agent.waitForCalls(1)
            #expect(await client.error(Self.devicePath, Self.device, "CancelPairing") == nil)
            #expect(await pair.value
                == .remote(name: "org.bluez.Error.AuthenticationCanceled", message: "Authentication Canceled"))
            try await agent.waitForCalls(2)
            #expect(await agent.calls == ["RequestPasskey", "Cancel"])
            try await waitUntilDisconnected(client)
            await client.close()
        }
    }

    // MARK: Steps

    @discardableResult
    private func addSecureDevice(_ bench: BlueZStandInBench, _ security: BlueZStandInSecurity,
                                 passkey: UInt32? = BlueZStandInPairingTests.passkey) async throws -> BlueZTestPeripheral {
        try await bench.addTestPeripheral(address: Self.address) { device in
            device.security = security
            device.passkey = passkey
        }
    }

    private func discover(_ client: RawBlueZClient) async throws {
        let before = await client.signals.count
        _ = try await client.call("/org/bluez/hci0", "org.bluez.Adapter1", "StartDiscovery")
        try await client.waitUntil("the device heard") { signals in
            signals.dropFirst(before).contains { $0.interfacesAdded?.object == Self.devicePath }
        }
        _ = try await client.call("/org/bluez/hci0", "org.bluez.Adapter1", "StopDiscovery")
    }

    /// Discovers (unless known), connects and waits for ServicesResolved.
    private func connect(_ client: RawBlueZClient) async throws {
        if try await client.managedObjects()[Self.devicePath] == nil { try await discover(client) }
        let before = await client.signals.count
        _ = try await client.call(Self.devicePath, Self.device, "Connect")
        try await client.waitUntil("ServicesResolved=true") { signals in
            signals.dropFirst(before).contains {
                $0.path == Self.devicePath && $0.propertiesChanged?.changed["ServicesResolved"] == .bool(true)
            }
        }
    }

    private func waitUntilDisconnected(_ client: RawBlueZClient) async throws {
        try await client.waitUntil("Connected=false") { signals in
            signals.contains { $0.path == Self.devicePath && $0.propertiesChanged?.changed["Connected"] == .bool(false) }
        }
    }

    /// The SMP characteristic of the current connection.
    private func smpPath(_ client: RawBlueZClient) async throws -> String {
        let uuid = DBusValue.string(BlueZTestPeripheral.smp.uuid.description)
        return try #require(try await client.managedObjects().first { path, interfaces in
            path.hasPrefix(Self.devicePath + "/") && interfaces[Self.characteristic]?["UUID"] == uuid
        }?.key)
    }
}
