import BlueZStandIn
import DBusBinding
import Foundation
import Testing
import Transport

/// Exported objects: Properties and ObjectManager as BlueZ reads a GATT application, and
/// Introspectable as `busctl` and `gdbus introspect` walk them.
@Suite(.enabled(if: dbusDaemonAvailable, dbusSkipReason))
struct DBusExportTests {
    static let service = DBusExportedObject(path: "/app/service0", interfaces: [
        DBusExportedInterface(name: "org.bluez.GattService1", properties: [
            "UUID": .string("8d53dc1d-1db7-4cd3-868b-8a527460aa84"), "Primary": .bool(true),
        ]),
    ])
    static let characteristic = DBusExportedObject(path: "/app/service0/char0", interfaces: [
        DBusExportedInterface(name: "org.bluez.GattCharacteristic1", methods: [
            "ReadValue": { _ in [.bytes([1, 2, 3])] },
            "StartNotify": { _ in [] },
        ], properties: [
            "UUID": .string("da2e7828-fbce-4e01-ae9e-261174997c48"),
            "Service": .objectPath("/app/service0"),
            "Flags": .strings(["write-without-response", "notify"]),
        ], signatures: ["ReadValue": DBusMethodSignature(arguments: "a{sv}", reply: "ay")]),
    ])

    @Test func objectManagerListsTheExportedSubtree() async throws {
        try await DBusTestBus.withBus { bus in
            let app = try await bus.connect()
            let client = try await bus.connect()
            try await app.exportObjectManager(at: "/app")
            try await app.export(Self.service)
            try await app.export(Self.characteristic)
            try await app.export(DBusExportedObject(path: "/elsewhere", interfaces: [
                DBusExportedInterface(name: "org.dfu.Other", properties: ["X": .int32(1)]),
            ]))
            let reply = try await client.call(destination: app.uniqueName, path: "/app",
                                              interface: DBusStandardInterface.objectManager, member: "GetManagedObjects")
            let objects = try reply.argument(0).asManagedObjects()
            #expect(objects == [
                "/app/service0": ["org.bluez.GattService1": Self.service.interfaces["org.bluez.GattService1"]?.properties ?? [:]],
                "/app/service0/char0": ["org.bluez.GattCharacteristic1":
                    Self.characteristic.interfaces["org.bluez.GattCharacteristic1"]?.properties ?? [:]],
            ])
            let read = try await client.call(destination: app.uniqueName, path: "/app/service0/char0",
                                             interface: "org.bluez.GattCharacteristic1", member: "ReadValue",
                                             arguments: [.properties([:])])
            #expect(try read.argument(0).asBytes() == [1, 2, 3])
        }
    }

    @Test func exportAndUnexportAnnounceInterfaces() async throws {
        try await DBusTestBus.withBus { bus in
            let app = try await bus.connect()
            let client = try await bus.connect()
            try await app.exportObjectManager(at: "/app")
            let announcements = try await client.signals(matching: DBusMatchRule(sender: app.uniqueName,
                                                                                 interface: DBusStandardInterface.objectManager))
            try await app.export(Self.service)
            try await app.unexport(path: "/app/service0")
            let signals = try await DBusWait.take(2, from: announcements)
            #expect(signals.count == 2)
            let added = try DBusInterfacesAdded(try #require(signals.first))
            #expect(added.object == "/app/service0")
            #expect(added.interfaces["org.bluez.GattService1"]?["Primary"] == .bool(true))
            let removed = try DBusInterfacesRemoved(try #require(signals.last))
            #expect(removed.object == "/app/service0")
            #expect(removed.interfaces == ["org.bluez.GattService1"])
        }
    }

    @Test func propertiesGetAndGetAllAnswerAndRefuseUnknowns() async throws {
        try await DBusTestBus.withBus { bus in
            let service = try await bus.connect()
            let client = try await bus.connect()
            try await service.export(DBusEchoService.object())
            func properties(_ member: String, _ arguments: [DBusValue]) async throws -> [DBusValue] {
                try await client.call(destination: service.uniqueName, path: DBusEchoService.path,
                                      interface: DBusStandardInterface.properties, member: member, arguments: arguments)
            }
            let all = try await properties("GetAll", [.string(DBusEchoService.interface)])
            #expect(try all.argument(0).asProperties() == ["Name": .string("echo"), "Level": .byte(87)])
            #expect(try await properties("Get", [.string(DBusEchoService.interface), .string("Name")]) == [.variant(.string("echo"))])

            for (member, arguments, expected) in [
                ("Get", [DBusValue.string(DBusEchoService.interface), .string("Missing")], DBusErrorName.unknownProperty),
                ("GetAll", [.string("org.dfu.Missing")], DBusErrorName.unknownInterface),
                ("Get", [.int32(1)], DBusErrorName.invalidArgs),
                ("Set", [.string(DBusEchoService.interface), .string("Name"), .variant(.string("x"))],
                 DBusErrorName.propertyReadOnly),
            ] {
                do {
                    _ = try await properties(member, arguments)
                    Issue.record("\(member) \(arguments) succeeded")
                } catch let error as DBusError {
                    #expect(error.remoteName == expected)
                }
            }
        }
    }

    /// Every path from the root down answers Introspect: objects with their interfaces (methods
    /// with the signatures recorded, properties with their types) and children; paths in between
    /// with children only; anything else is left to libdbus (an empty node).
    @Test func introspectDescribesObjectsAndTheirChildren() async throws {
        try await DBusTestBus.withBus { bus in
            let app = try await bus.connect()
            let client = try await bus.connect()
            try await Self.exportApp(app)
            func introspect(_ path: String) async throws -> String {
                try await client.call(destination: app.uniqueName, path: path, interface: "org.freedesktop.DBus.Introspectable",
                                      member: "Introspect").argument(0).asString()
            }
            let root = try await introspect("/")
            #expect(root.contains(#"<node name="app"/>"#) && root.contains(#"<node name="elsewhere"/>"#))
            #expect(!root.contains(DBusStandardInterface.properties))

            let manager = try await introspect("/app")
            #expect(manager.contains(#"<interface name="org.freedesktop.DBus.ObjectManager">"#))
            #expect(manager.contains(#"<method name="GetManagedObjects">"#))
            #expect(manager.contains(#"<node name="service0"/>"#))

            let characteristic = try await introspect("/app/service0/char0")
            #expect(characteristic.hasPrefix("<!DOCTYPE node"))
            #expect(characteristic.contains(#"<interface name="org.freedesktop.DBus.Properties">"#))
            #expect(characteristic.contains("""
                    <method name="ReadValue">
                      <arg type="a{sv}" direction="in"/>
                      <arg type="ay" direction="out"/>
                    </method>
                """))
            #expect(characteristic.contains(#"<method name="StartNotify"/>"#))
            #expect(characteristic.contains(#"<property name="Flags" type="as" access="read"/>"#))
            #expect(characteristic.contains(#"<property name="Service" type="o" access="read"/>"#))
            #expect(!characteristic.contains("<node name="))

            // Nothing there: libdbus's own answer, an empty node.
            let nothing = try await introspect("/nothing")
            #expect(!nothing.contains(DBusStandardInterface.properties))
            #expect(!nothing.contains("<node name="))
        }
    }

    /// gdbus parses the XML strictly and walks the tree from `/` by the child nodes.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/gdbus"), "needs gdbus (libglib2.0-bin)"))
    func gdbusWalksTheExportedTree() async throws {
        try await DBusTestBus.withBus { bus in
            let app = try await bus.connect()
            try await Self.exportApp(app)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/gdbus")
            process.arguments = ["introspect", "--address", bus.address, "--dest", app.uniqueName,
                                 "--object-path", "/", "--recurse"]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let text = try await DBusWait.within {
                String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            }
            #expect(ChildExit.wait(process, timeout: 30) == ChildExit.Status(code: 0, exited: true), "\(text)")
            #expect(text.contains("node /app/service0/char0"))
            #expect(text.contains("interface org.bluez.GattCharacteristic1"))
            #expect(text.contains("ReadValue(in  a{sv} arg_0,"))
            #expect(text.contains("readonly as Flags"))
            #expect(text.contains("node /elsewhere"))
        }
    }

    static func exportApp(_ app: DBusConnection) async throws {
        try await app.exportObjectManager(at: "/app")
        try await app.export(service)
        try await app.export(characteristic)
        try await app.export(DBusExportedObject(path: "/elsewhere", interfaces: [
            DBusExportedInterface(name: "org.dfu.Other", properties: ["X": .int32(1)]),
        ]))
    }
}
