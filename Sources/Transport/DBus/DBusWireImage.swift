/// A message as wire bytes, and back: lets the reader be exercised with bytes that never came from
/// our writer (corrupted, truncated), the way a hostile peer's would arrive.
enum DBusWireImage {
    /// A signal carrying `arguments`, marshalled.
    static func signal(path: String, interface: String, member: String, arguments: [DBusValue]) throws -> [UInt8] {
        let message = try DBusMessagePointer.signal(path: path, interface: interface, member: member)
        try message.append(arguments)
        return try message.marshal()
    }

    /// The arguments of marshalled message bytes: libdbus's validation, then our checked reader.
    static func arguments(of bytes: [UInt8]) throws -> [DBusValue] {
        try DBusMessagePointer.demarshal(bytes).arguments()
    }
}
