// A D-Bus message as it arrives from the bus (a GetManagedObjects reply, InterfacesAdded/Removed,
// PropertiesChanged, from bluetoothd or an impostor): libdbus's validation (demarshal), our checked
// reader of its arguments (DBusMessageReader), the typed accessors, our writer (DBusMessageWriter:
// the values written and read again are the same), then the BlueZ object tree built from it and
// updated by it, and every view dfu takes of that tree. Each returns or throws.
@testable import BlueZTransport
@testable import DBusBinding

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDBusMessage(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    let bytes = Array(FuzzInput(data, size).remaining)
    guard let message = try? DBusMessagePointer.demarshal(bytes) else { return 0 }
    _ = (message.type, message.sender, message.errorName, message.signature, message.expectsReply)
    guard let arguments = try? message.arguments() else { return 0 }
    for argument in arguments {
        _ = try? argument.asManagedObjects()
        _ = try? argument.asInterfaces()
        _ = try? argument.asProperties()
        _ = try? argument.asStrings()
        _ = try? argument.asBytes()
        _ = try? argument.asVariant()
    }
    // What our writer makes of the values reads back as the same values (NaN aside: unequal to itself).
    if arguments == arguments, let written = try? DBusWireImage.signal(path: "/fuzz", interface: "org.fuzz", member: "Fuzz",
                                                                       arguments: arguments) {
        require((try? DBusWireImage.arguments(of: written)) == arguments, "arguments changed through our writer")
    }
    var tree = BlueZObjectTree(managedObjects: arguments.first ?? .bool(false))
    look(at: tree)
    let signal = DBusSignal(sender: message.sender, path: message.path, interface: message.interface,
                            member: message.member, arguments: arguments)
    if tree.apply(signal) != nil { look(at: tree) }
    return 0
}

/// What dfu reads from the tree: adapters, devices, their services.
private func look(at tree: BlueZObjectTree) {
    for adapter in tree.adapters {
        for device in tree.devices(of: adapter.path) {
            _ = device.discovered
            _ = tree.device(address: device.address, adapter: adapter.path)
        }
    }
    for path in tree.paths(with: BlueZNames.device) {
        _ = tree.device(at: path)
        _ = tree.connectedReports(of: path)
        for service in tree.services(of: path) { _ = service.gattService }
    }
}
