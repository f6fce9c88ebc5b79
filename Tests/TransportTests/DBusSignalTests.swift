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
