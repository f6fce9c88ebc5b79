import DBusBinding
import Foundation
import Testing
import Transport

/// Every value type through a real bus and back: one connection exports the echo object, another
/// calls it, and the reply must equal what was sent.
@Suite(.enabled(if: dbusDaemonAvailable, dbusSkipReason))
struct DBusValueTests {
    static let everyType: [DBusValue] = [
        .byte(0), .byte(255), .bool(true), .bool(false),
        .int16(.min), .uint16(.max), .int32(-7), .uint32(.max), .int64(.min), .uint64(.max),
        .double(3.25), .double(-0.0), .double(.infinity),
        .string(""), .string("héllo ✓ dfu"), .objectPath("/"), .objectPath("/org/bluez/hci0/dev_AA_BB"),
        .signature(""), .signature("a{oa{sa{sv}}}"),
        .array(elementSignature: "i", [.int32(1), .int32(2), .int32(3)]),
        .array(elementSignature: "s", []),
        .array(elementSignature: "a{sv}", []),
        .bytes(Array(0...255)),
        .bytes([]),
        .properties(["Powered": .bool(true), "RSSI": .int16(-60), "UUIDs": .strings(["180f", "8d53dc1d"])]),
        .dict(keySignature: "y", valueSignature: "v", [DBusDictEntry(.byte(1), .variant(.bytes([9, 8])))]),
        .dict(keySignature: "s", valueSignature: "v", []),
        .structure([.int32(1), .string("x"), .structure([.uint64(2), .variant(.bool(false))])]),
        .array(elementSignature: "(ay)", [.structure([.bytes([1])]), .structure([.bytes([])])]),
        .variant(.variant(.variant(.objectPath("/x")))),
        .variant(.array(elementSignature: "s", [])),
    ]

    @Test func everyValueTypeRoundTripsThroughAnEchoService() async throws {
        try await DBusTestBus.withBus { bus in
            let service = try await bus.connect()
            let client = try await bus.connect()
            try await service.export(DBusEchoService.object())
            let echoed = try await DBusEchoService.call(client, on: service, "Echo", Self.everyType)
            #expect(echoed == Self.everyType)
            #expect(echoed.dbusSignature == Self.everyType.dbusSignature)
        }
    }

    @Test func nestedManagedObjectsRoundTripAndDecode() async throws {
        let objects: [String: [String: [String: DBusValue]]] = [
            "/org/bluez/hci0": ["org.bluez.Adapter1": ["Powered": .bool(true), "Address": .string("00:AA:01:00:00:23")],
                                "org.freedesktop.DBus.Properties": [:]],
            "/org/bluez/hci0/dev_C2_11": ["org.bluez.Device1": ["RSSI": .int16(-48),
                                                                "ManufacturerData": .dict(keySignature: "q", valueSignature: "v",
                                                                    [DBusDictEntry(.uint16(0x59), .variant(.bytes([1, 2])))])]],
        ]
        try await DBusTestBus.withBus { bus in
            let service = try await bus.connect()
            let client = try await bus.connect()
            try await service.export(DBusEchoService.object())
            let echoed = try await DBusEchoService.call(client, on: service, "Echo", [.managedObjects(objects)])
            #expect(echoed.dbusSignature == "a{oa{sa{sv}}}")
            #expect(try echoed.argument(0).asManagedObjects() == objects)
        }
    }

    @Test func decodersRejectTheWrongShapeWithAnError() throws {
        #expect(throws: DBusError.self) { try DBusValue.string("x").asManagedObjects() }
        #expect(throws: DBusError.self) { try DBusValue.properties(["a": .int32(1)]).asInterfaces() }
        #expect(throws: DBusError.self) { try DBusValue.array(elementSignature: "i", [.int32(1)]).asBytes() }
        #expect(throws: DBusError.self) { try DBusValue.variant(.int32(1)).asString() }
        #expect(throws: DBusError.self) { try [DBusValue]().argument(0) }
        let repeated = DBusValue.dict(keySignature: "s", valueSignature: "v",
                                      [DBusDictEntry(.string("a"), .variant(.bool(true))),
                                       DBusDictEntry(.string("a"), .variant(.bool(false)))])
        #expect(throws: DBusError.self) { try repeated.asProperties() }
        #expect(try DBusValue.bytes([1, 2, 3]).asBytes() == [1, 2, 3])
    }

    @Test func invalidOutgoingValuesAreRefusedNotTrapped() async throws {
        try await DBusTestBus.withBus { bus in
            let service = try await bus.connect()
            let client = try await bus.connect()
            try await service.export(DBusEchoService.object())
            let invalid: [DBusValue] = [
                .array(elementSignature: "s", [.int32(1)]),
                .string("nul\0inside"),
                .objectPath("not/a/path"),
                .objectPath("/trailing/"),
                .signature("a{"),
                .structure([]),
                .dict(keySignature: "v", valueSignature: "s", []),
                .array(elementSignature: "", []),
            ]
            for value in invalid {
                await #expect(throws: DBusError.self) {
                    _ = try await DBusEchoService.call(client, on: service, "Echo", [value])
                }
            }
            await #expect(throws: DBusError.self) {
                _ = try await client.call(destination: service.uniqueName, path: "bad path",
                                          interface: DBusEchoService.interface, member: "Echo")
            }
            await #expect(throws: DBusError.self) {
                _ = try await client.call(destination: service.uniqueName, path: "/x", interface: "no dots", member: "Echo")
            }
            // The connection still works afterwards.
            #expect(try await DBusEchoService.call(client, on: service, "Echo", [.int32(5)]) == [.int32(5)])
        }
    }

    @Test func unixFDsPassBothWays() async throws {
        try await DBusTestBus.withBus { bus in
            let service = try await bus.connect()
            let client = try await bus.connect()
            try await service.export(DBusEchoService.object())
            var ends: [Int32] = [-1, -1]
            #expect(pipe(&ends) == 0)
            let readEnd = DBusUnixFD(owning: ends[0])
            let writeEnd = DBusUnixFD(owning: ends[1])

            // The service writes into the fd it received; we read it from our end.
            let reply = try await DBusEchoService.call(client, on: service, "WriteTo",
                                                       [.unixFD(writeEnd), .bytes(Array("from service".utf8))])
            #expect(reply == [.int32(12)])
            #expect(Self.read(readEnd, count: 12) == Array("from service".utf8))

            // An fd coming back to us (a fresh dup we own) writes into the same pipe.
            let echoed = try await DBusEchoService.call(client, on: service, "Echo", [.unixFD(writeEnd)])
            let received = try echoed.argument(0).asUnixFD()
            #expect(received.descriptor != writeEnd.descriptor)
            let bytes = Array("from client".utf8)
            #expect(bytes.withUnsafeBytes { write(received.descriptor, $0.baseAddress, $0.count) } == bytes.count)
            #expect(Self.read(readEnd, count: bytes.count) == bytes)
        }
    }

    private static func read(_ fd: DBusUnixFD, count: Int) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        let got = buffer.withUnsafeMutableBytes { Glibc.read(fd.descriptor, $0.baseAddress, count) }
        return Array(buffer.prefix(max(got, 0)))
    }
}
