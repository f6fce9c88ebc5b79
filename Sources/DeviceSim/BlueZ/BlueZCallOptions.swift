import BlueZTransport
import DBusBinding
import Transport

/// The options dictionary (`a{sv}`) bluetoothd passes with ReadValue and WriteValue: the central's
/// Device1 path, the ATT MTU and the offset (gatt-database.c `append_options`). Write Commands come
/// without `type` (reference §8). A wrong type is answered InvalidArguments, never trusted.
struct BlueZCallOptions: Sendable, Hashable {
    var device: String?
    var mtu: Int?
    var offset = 0

    init(device: String? = nil, mtu: Int? = nil, offset: Int = 0) {
        self.device = device
        self.mtu = mtu
        self.offset = offset
    }

    /// Reads `value`, the call's options argument; nil reads as no options.
    init(_ value: DBusValue?) throws(DBusError) {
        guard let value else { return }
        do {
            let options = try value.asProperties()
            device = try options["device"]?.asObjectPath()
            mtu = try options["mtu"].map { Int(try $0.asUInt16()) }
            offset = try options["offset"].map { Int(try $0.asUInt16()) } ?? 0
        } catch {
            throw .remote(name: BlueZNames.Error.invalidArguments, message: "bad options: \(error)")
        }
    }
}
