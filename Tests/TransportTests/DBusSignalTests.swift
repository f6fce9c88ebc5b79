import DBusBinding
import Testing
import Transport

/// Signals: order, filtering, and the decoded standard signals.
@Suite(.enabled(if: dbusDaemonAvailable, dbusSkipReason))
struct DBusSignalTests {
    @Test func signalsArriveInOrderAndFiltered() async throws {
        try await DBusTestBus.withBus { bus in
            let emitter = try await bus.connect()
            let listener = try await bus.connect()
            let ticks = try await listener.signals(matching: DBusMatchRule(sender: emitter.uniqueName, path: "/a",
                                                                           interface: "org.dfu.Test", member: "Tick"))
            for index in 0..<50 {
                try await emitter.emitSignal(path: "/a", interface: "org.dfu.Test", member: "Tick", arguments: [.int32(Int32(index))])
                try await emitter.emitSignal(path: "/b", interface: "org.dfu.Test", member: "Tick", arguments: [.int32(-1)])
                try await emitter.emitSignal(path: "/a", interface: "org.dfu.Test", member: "Tock", arguments: [.int32(-2)])
            }
            let received = try await DBusWait.take(50, from: ticks)
            #expect(received.map(\.arguments) == (0..<50).map { [DBusValue.int32(Int32($0))] })
            #expect(received.allSatisfy { $0.path == "/a" && $0.member == "Tick" && $0.sender == emitter.uniqueName })
        }
    }

    /// Two subscriptions differing only by sender: the bus routes the impostor's look-alike signal
    /// to this connection, and only the well-known name's owner reaches the name's subscription.
    @Test func wellKnownSenderDeliversOnlyItsOwnersSignals() async throws {
        try await DBusTestBus.withBus { bus in
            let real = try await bus.connect()
            let impostor = try await bus.connect()
            let listener = try await bus.connect()
            #expect(try await real.requestName(DBusOwnerTest.name) == .primaryOwner)
            let fromName = try await listener.signals(matching: DBusOwnerTest.rule(sender: DBusOwnerTest.name))
            let fromImpostor = try await listener.signals(matching: DBusOwnerTest.rule(sender: impostor.uniqueName))

            try await DBusOwnerTest.ping(real, 1)
            try await DBusOwnerTest.ping(impostor, -1)
            // The impostor's signal has been judged once its own subscription has it.
            #expect(try await DBusWait.take(1, from: fromImpostor).map(\.arguments) == [[.int32(-1)]])
            try await DBusOwnerTest.ping(real, 2)

            let received = try await DBusWait.take(2, from: fromName)
            #expect(received.map(\.arguments) == [[.int32(1)], [.int32(2)]])
            #expect(received.allSatisfy { $0.sender == real.uniqueName })
        }
    }

    @Test func signalsFollowTheNameToItsNewOwner() async throws {
        try await DBusTestBus.withBus { bus in
            let first = try await bus.connect()
            let second = try await bus.connect()
            let listener = try await bus.connect()
            #expect(try await first.requestName(DBusOwnerTest.name) == .primaryOwner)
            let fromName = try await listener.signals(matching: DBusOwnerTest.rule(sender: DBusOwnerTest.name))
            let fromAnyone = try await listener.signals(matching: DBusOwnerTest.rule(sender: nil))

            try await DBusOwnerTest.ping(first, 1)
            try await DBusOwnerTest.releaseName(first)
            #expect(try await second.requestName(DBusOwnerTest.name) == .primaryOwner)
            try await DBusOwnerTest.ping(first, -1)
            #expect(try await DBusWait.take(2, from: fromAnyone).map(\.arguments) == [[.int32(1)], [.int32(-1)]])
            try await DBusOwnerTest.ping(second, 2)

            let received = try await DBusWait.take(2, from: fromName)
            #expect(received.map(\.arguments) == [[.int32(1)], [.int32(2)]])
            #expect(received.map(\.sender) == [first.uniqueName, second.uniqueName])
        }
    }

    @Test func aNameWithoutOwnerDeliversNothingUntilTaken() async throws {
        try await DBusTestBus.withBus { bus in
            let emitter = try await bus.connect()
            let listener = try await bus.connect()
            let fromName = try await listener.signals(matching: DBusOwnerTest.rule(sender: DBusOwnerTest.name))
            let fromAnyone = try await listener.signals(matching: DBusOwnerTest.rule(sender: nil))

            try await DBusOwnerTest.ping(emitter, -1)
            #expect(try await DBusWait.take(1, from: fromAnyone).map(\.arguments) == [[.int32(-1)]])
            #expect(try await emitter.requestName(DBusOwnerTest.name) == .primaryOwner)
            try await DBusOwnerTest.ping(emitter, 1)

            let received = try await DBusWait.take(1, from: fromName)
            #expect(received.map(\.arguments) == [[.int32(1)]])
        }
    }

    /// The bus sends its own signals as `org.freedesktop.DBus`, not as a unique name.
    @Test func signalsFromTheBusItselfArrive() async throws {
        try await DBusTestBus.withBus { bus in
            let owner = try await bus.connect()
            let listener = try await bus.connect()
            let changes = try await listener.signals(matching: DBusMatchRule(sender: DBusStandardInterface.bus,
                                                                             interface: DBusStandardInterface.bus,
                                                                             member: "NameOwnerChanged"))
            #expect(try await owner.requestName(DBusOwnerTest.name) == .primaryOwner)
            let signal = try #require(try await DBusWait.take(1, from: changes).first)
            #expect(signal.sender == DBusStandardInterface.bus)
            #expect(signal.arguments == [.string(DBusOwnerTest.name), .string(""), .string(owner.uniqueName)])
        }
    }

    @Test func pathNamespaceMatchesTheSubtreeOnly() async throws {
        try await DBusTestBus.withBus { bus in
            let emitter = try await bus.connect()
            let listener = try await bus.connect()
            let stream = try await listener.signals(matching: DBusMatchRule(pathNamespace: "/org/bluez/hci0",
                                                                            interface: "org.dfu.Test"))
            for path in ["/org/bluez/hci1", "/org/bluez/hci0/dev_1", "/org/bluez/hci00", "/org/bluez/hci0"] {
                try await emitter.emitSignal(path: path, interface: "org.dfu.Test", member: "Seen")
            }
            let received = try await DBusWait.take(2, from: stream)
            #expect(received.map(\.path) == ["/org/bluez/hci0/dev_1", "/org/bluez/hci0"])
        }
    }

    @Test func propertiesChangedIsDecoded() async throws {
        try await DBusTestBus.withBus { bus in
            let service = try await bus.connect()
            let listener = try await bus.connect()
            try await service.export(DBusEchoService.object())
            let changes = try await listener.signals(matching: DBusMatchRule(path: DBusEchoService.path,
                                                                             interface: DBusStandardInterface.properties,
                                                                             member: "PropertiesChanged"))
            try await service.setProperty(path: DBusEchoService.path, interface: DBusEchoService.interface,
                                          name: "Level", value: .byte(42))
            let signal = try #require(try await DBusWait.take(1, from: changes).first)
            let decoded = try DBusPropertiesChanged(signal)
            #expect(decoded.path == DBusEchoService.path)
            #expect(decoded.interface == DBusEchoService.interface)
            #expect(decoded.changed == ["Level": .byte(42)])
            #expect(decoded.invalidated.isEmpty)
            // Get now answers the new value.
            let value = try await listener.call(destination: service.uniqueName, path: DBusEchoService.path,
                                                interface: DBusStandardInterface.properties, member: "Get",
                                                arguments: [.string(DBusEchoService.interface), .string("Level")])
            #expect(value == [.variant(.byte(42))])
        }
    }

    @Test func standardSignalDecodersRejectOtherShapes() {
        let wrongMember = DBusSignal(sender: ":1.1", path: "/", interface: DBusStandardInterface.properties,
                                     member: "Other", arguments: [])
        #expect(throws: DBusError.self) { try DBusPropertiesChanged(wrongMember) }
        let wrongArguments = DBusSignal(sender: ":1.1", path: "/", interface: DBusStandardInterface.properties,
                                        member: "PropertiesChanged", arguments: [.string("x"), .int32(1)])
        #expect(throws: DBusError.self) { try DBusPropertiesChanged(wrongArguments) }
        let shortAdded = DBusSignal(sender: ":1.1", path: "/", interface: DBusStandardInterface.objectManager,
                                    member: "InterfacesAdded", arguments: [.objectPath("/x")])
        #expect(throws: DBusError.self) { try DBusInterfacesAdded(shortAdded) }
        let removed = DBusSignal(sender: ":1.1", path: "/", interface: DBusStandardInterface.objectManager,
                                 member: "InterfacesRemoved", arguments: [.objectPath("/x"), .int32(0)])
        #expect(throws: DBusError.self) { try DBusInterfacesRemoved(removed) }
    }
}

/// One signal shape emitted by several connections, told apart by its argument.
private enum DBusOwnerTest {
    static let name = "org.example.Real"

    static func rule(sender: String?) -> DBusMatchRule {
        DBusMatchRule(sender: sender, path: "/s", interface: "org.dfu.Test", member: "Ping")
    }

    static func ping(_ connection: DBusConnection, _ value: Int32) async throws {
        try await connection.emitSignal(path: "/s", interface: "org.dfu.Test", member: "Ping", arguments: [.int32(value)])
    }

    static func releaseName(_ connection: DBusConnection) async throws {
        _ = try await connection.call(destination: DBusStandardInterface.bus, path: "/org/freedesktop/DBus",
                                      interface: DBusStandardInterface.bus, member: "ReleaseName",
                                      arguments: [.string(name)])
    }
}
