import BlueZStandIn
import DBusBinding
import Foundation
import Testing
import Transport

/// Device1.Pair, CancelPairing and AgentManager1 in the stand-in, driven by a raw D-Bus client
/// with its own agent: they must answer as bluetoothd 5.66 does (bluez-dbus.md §9) for the
/// central's pairing tests to mean anything.
@Suite(.enabled(if: standInAvailable, standInSkipReason))
struct BlueZStandInPairingTests: StandInPairingSuite {
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

    /// device.c `create_bond_req_exit`: the Pair caller leaving the bus cancels the pairing and
    /// drops the link.
    @Test func pairCallerLeavingTheBusCancelsThePairing() async throws {
        try await BlueZStandInBench.run(timing: BlueZStandInTiming(agentTimeout: .seconds(30))) { bench in
            try await addSecureDevice(bench, .authenticate)
            let watcher = try await RawBlueZClient.connect(bench)
            let client = try await RawBlueZClient.connect(bench)
            let agent = try await StandInTestAgent.register(on: client.connection, capability: "KeyboardOnly",
                                                            answer: .silence)
            try await connect(client)
            let pair = Task { await client.error(Self.devicePath, Self.device, "Pair") }
            try await agent.waitForCalls(1)
            await client.close()
            _ = await pair.value
            try await waitUntilDisconnected(watcher)
            let standIn = try bench.requireStandIn()
            #expect(await standIn.statistics(address: Self.address).agentCalls == ["RequestPasskey", "Cancel"])
            #expect(await standIn.bond(address: Self.address) == nil)
            await agent.release()
            await watcher.close()
        }
    }
}
