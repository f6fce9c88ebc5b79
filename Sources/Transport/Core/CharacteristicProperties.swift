/// What a characteristic allows (the GATT characteristic properties bits, Core spec Vol 3 Part G
/// §3.3.1.1, restricted to the ones dfu uses).
public struct CharacteristicProperties: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let read = CharacteristicProperties(rawValue: 0x02)
    public static let writeWithoutResponse = CharacteristicProperties(rawValue: 0x04)
    public static let write = CharacteristicProperties(rawValue: 0x08)
    public static let notify = CharacteristicProperties(rawValue: 0x10)
    /// Indications: acknowledged notifications (the buttonless DFU characteristic's answers). A
    /// link delivers them as notifications.
    public static let indicate = CharacteristicProperties(rawValue: 0x20)

    public var description: String {
        let names: [(CharacteristicProperties, String)] = [
            (.read, "read"), (.writeWithoutResponse, "write-without-response"), (.write, "write"), (.notify, "notify"),
            (.indicate, "indicate"),
        ]
        return names.filter { contains($0.0) }.map(\.1).joined(separator: ", ")
    }
}
