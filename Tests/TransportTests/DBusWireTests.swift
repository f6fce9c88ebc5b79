@testable import DBusBinding
import Testing
@testable import Transport

/// The reader against bytes our writer did not make: seeded corruptions of a BlueZ-shaped message
/// must give values or errors, never a trap.
struct DBusWireTests {
    static let arguments: [DBusValue] = [
        .string("org.bluez.Device1"),
        .properties(["RSSI": .int16(-50), "UUIDs": .strings(["180f"]), "Data": .bytes([1, 2, 3]),
                     "Nested": .structure([.uint32(7), .variant(.objectPath("/org/bluez"))])]),
        .managedObjects(["/org/bluez/hci0": ["org.bluez.Adapter1": ["Powered": .bool(true)]]]),
    ]

    @Test func marshalledMessageReadsBackIdentically() throws {
        let bytes = try DBusWireImage.signal(path: "/org/bluez/hci0", interface: "org.dfu.Test", member: "Shape",
                                             arguments: Self.arguments)
        #expect(try DBusWireImage.arguments(of: bytes) == Self.arguments)
    }

    @Test func corruptedMessagesGiveErrorsNotTraps() throws {
        let bytes = try DBusWireImage.signal(path: "/org/bluez/hci0", interface: "org.dfu.Test", member: "Shape",
                                             arguments: Self.arguments)
        var random = SplitMix64(seed: 0xD_B05)
        var accepted = 0
        for _ in 0..<3000 {
            var mutated = bytes
            for _ in 0..<Int(random.next() % 4 + 1) {
                let index = Int(random.next() % UInt64(mutated.count))
                mutated[index] = UInt8(truncatingIfNeeded: random.next())
            }
            if random.next() % 8 == 0 { mutated.removeLast(Int(random.next() % UInt64(mutated.count))) }
            if (try? DBusWireImage.arguments(of: mutated)) != nil { accepted += 1 }
        }
        // Some corruptions stay valid D-Bus (a changed byte inside a string or number).
        #expect(accepted > 0)
    }
}

/// A small seeded generator so the corruptions are the same on every run.
private struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
