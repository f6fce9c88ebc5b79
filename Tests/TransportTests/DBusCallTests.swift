import DBusBinding
import Foundation
import Testing
import Transport

/// Method calls: typed errors, deadlines, cancellation, unexpected shapes, and a bus that dies.
@Suite(.enabled(if: dbusDaemonAvailable, dbusSkipReason))
struct DBusCallTests {
    @Test func methodErrorsArriveWithTheirDBusName() async throws {
        try await DBusTestBus.withBus { bus in
            let service = try await bus.connect()
            let client = try await bus.connect()
            try await service.export(DBusEchoService.object())

            await #expect(throws: DBusError.remote(name: "org.bluez.Error.NotReady", message: "Resource Not Ready")) {
                _ = try await DBusEchoService.call(client, on: service, "Fail")
            }
            let plain = await Self.error { try await DBusEchoService.call(client, on: service, "Throw") }
            #expect(plain?.remoteName == DBusErrorName.failed)
            let unknownMethod = await Self.error { try await DBusEchoService.call(client, on: service, "Nope") }
            #expect(unknownMethod?.remoteName == DBusErrorName.unknownMethod)
            let unknownService = await Self.error {
                try await client.call(destination: "org.dfu.Nobody", path: "/", interface: "org.dfu.Test", member: "Echo")
            }
            #expect(unknownService?.remoteName == DBusErrorName.serviceUnknown)
            let unknownObject = await Self.error {
                try await client.call(destination: service.uniqueName, path: "/nothing/here",
                                      interface: DBusEchoService.interface, member: "Echo")
            }
            #expect(unknownObject?.remoteName == DBusErrorName.unknownMethod)
        }
    }

    @Test func concurrentCallsEachGetTheirOwnReply() async throws {
        try await DBusTestBus.withBus { bus in
            let service = try await bus.connect()
            let client = try await bus.connect()
            try await service.export(DBusEchoService.object())
            let replies = try await withThrowingTaskGroup(of: (Int32, [DBusValue]).self) { group in
                // Below the bus's limit of pending replies per connection (dbus-daemon: 128).
                for index in Int32(0)..<100 {
                    group.addTask { (index, try await DBusEchoService.call(client, on: service, "Echo", [.int32(index)])) }
                }
                return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
            }
            #expect(replies.count == 100)
            #expect(replies.allSatisfy { $0.value == [.int32($0.key)] })
        }
    }

    @Test func handlerReplyThatIsNotValidDBusBecomesAnError() async throws {
        try await DBusTestBus.withBus { bus in
            let service = try await bus.connect()
            let client = try await bus.connect()
            try await service.export(DBusEchoService.object())
            let error = await Self.error { try await DBusEchoService.call(client, on: service, "BadReply") }
            #expect(error?.remoteName == DBusErrorName.failed)
        }
    }

    @Test func unexpectedReplyShapeIsAnErrorNotATrap() async throws {
        try await DBusTestBus.withBus { bus in
            let service = try await bus.connect()
            let client = try await bus.connect()
            try await service.export(DBusEchoService.object())
            // A "GetManagedObjects" that answers with the wrong types.
            let reply = try await DBusEchoService.call(client, on: service, "Echo",
                                                       [.properties(["x": .string("not objects")])])
            #expect(throws: DBusError.self) { try reply.argument(0).asManagedObjects() }
            #expect(throws: DBusError.self) { try reply.argument(1) }
            let empty = try await DBusEchoService.call(client, on: service, "Echo")
            #expect(throws: DBusError.self) { try empty.argument(0).asProperties() }
        }
    }

    @Test func callWithoutReplyTimesOutAtItsDeadline() async throws {
        try await DBusTestBus.withBus { bus in
            let service = try await bus.connect()
            let client = try await bus.connect()
            let gate = DBusTestGate()
            try await service.export(DBusEchoService.object(gate: gate))
            let started = ContinuousClock.now
            await #expect(throws: DBusError.timedOut(member: "Wait", after: .milliseconds(200))) {
                _ = try await DBusEchoService.call(client, on: service, "Wait", timeout: .milliseconds(200))
            }
            #expect(ContinuousClock.now - started >= .milliseconds(200))
            gate.open()
            // The late reply is dropped; the connection keeps working.
            #expect(try await DBusEchoService.call(client, on: service, "Echo", [.bool(true)]) == [.bool(true)])
        }
    }

    @Test func cancellingTheCallerEndsTheCall() async throws {
        try await DBusTestBus.withBus { bus in
            let service = try await bus.connect()
            let client = try await bus.connect()
            let gate = DBusTestGate()
            try await service.export(DBusEchoService.object(gate: gate))
            let call = Task { try await DBusEchoService.call(client, on: service, "Wait", timeout: .seconds(120)) }
            _ = try await DBusWait.take(1, from: gate.entered)
            call.cancel()
            let outcome = try await DBusWait.within { await call.result }
            #expect(throws: DBusError.cancelled) { try outcome.get() }
            gate.open()
        }
    }

    @Test func busDaemonKilledMidCallFailsThePendingCall() async throws {
        try await DBusTestBus.withBus { bus in
            let service = try await bus.connect()
            let client = try await bus.connect()
            let gate = DBusTestGate()
            try await service.export(DBusEchoService.object(gate: gate))
            let signals = try await client.signals(matching: DBusMatchRule(interface: "org.dfu.Test"))
            let call = Task { try await DBusEchoService.call(client, on: service, "Wait", timeout: .seconds(120)) }
            _ = try await DBusWait.take(1, from: gate.entered)

            bus.kill()
            let outcome = try await DBusWait.within { await call.result }
            #expect(throws: DBusError.disconnected) { try outcome.get() }
            // Later calls fail at once, and signal streams end.
            await #expect(throws: DBusError.disconnected) {
                _ = try await DBusEchoService.call(client, on: service, "Echo")
            }
            #expect(try await DBusWait.take(1, from: signals).isEmpty)
            gate.open()
        }
    }

    @Test func closedConnectionFailsCallsWithClosed() async throws {
        try await DBusTestBus.withBus { bus in
            let client = try await bus.connect()
            client.close()
            await #expect(throws: DBusError.closed) {
                _ = try await client.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                          interface: "org.freedesktop.DBus", member: "GetId")
            }
        }
    }

    @Test func connectingToANonexistentBusThrows() async throws {
        await #expect(throws: DBusError.self) {
            _ = try await DBusConnection.connect(to: .address("unix:path=/nonexistent/dfu-test-bus"))
        }
    }

    @Test func wellKnownNamesCanBeRequestedAndCalled() async throws {
        try await DBusTestBus.withBus { bus in
            let service = try await bus.connect()
            let other = try await bus.connect()
            try await service.export(DBusEchoService.object())
            #expect(try await service.requestName("org.dfu.TestService") == .primaryOwner)
            #expect(try await service.requestName("org.dfu.TestService") == .alreadyOwner)
            #expect(try await other.requestName("org.dfu.TestService") == .exists)
            let reply = try await other.call(destination: "org.dfu.TestService", path: DBusEchoService.path,
                                             interface: DBusEchoService.interface, member: "Echo",
                                             arguments: [.string("hi")])
            #expect(reply == [.string("hi")])
        }
    }

    @Test func systemBusHonoursTheEnvironmentAddress() async throws {
        try await DBusTestBus.withBus { bus in
            // The environment is passed in: changing the process's own would race other tests.
            #expect(DBusBusAddress.system.resolvedAddress(environment: [:]) == nil)
            let system = try await DBusConnection.connect(to: .system,
                                                          environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
            #expect(system.uniqueName.hasPrefix(":"))
            let id = try await system.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                           interface: "org.freedesktop.DBus", member: "GetId")
            #expect(try id.argument(0).asString().count == 32)
        }
    }

    private static func error(_ body: () async throws -> [DBusValue]) async -> DBusError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error as? DBusError
        }
    }
}
