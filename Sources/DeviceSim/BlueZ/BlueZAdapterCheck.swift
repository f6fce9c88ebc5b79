import BlueZTransport
import DBusBinding
import Transport

/// Checks, before anything is registered, that bluetoothd runs, lets us in and has the adapter
/// powered with the two managers a peripheral needs, so each problem gets its own one-line error
/// instead of a registration failing later for an unclear reason.
enum BlueZAdapterCheck {
    /// The adapter's address. One GetManagedObjects on bluetoothd's root answers everything:
    /// whether bluetoothd is there (ServiceUnknown), access (AccessDenied), which adapters exist.
    static func check(_ adapter: String, on connection: DBusConnection) async throws(BlueZServeError) -> String {
        let objects: [String: [String: [String: DBusValue]]]
        do {
            let reply = try await connection.call(destination: BlueZNames.service, path: "/",
                                                  interface: DBusStandardInterface.objectManager,
                                                  member: "GetManagedObjects", timeout: .seconds(20))
            objects = try reply.argument(0).asManagedObjects()
        } catch {
            throw BlueZServeError.classify(error, operation: "reading bluetoothd's objects")
        }
        let path = BlueZNames.adapterPath(adapter)
        guard let interfaces = objects[path], let properties = interfaces[BlueZNames.adapter] else {
            let available = objects.filter { $0.value[BlueZNames.adapter] != nil }
                .keys.compactMap { $0.split(separator: "/").last.map(String.init) }.sorted()
            throw .noAdapter(adapter, available: available)
        }
        if let powered = try? properties["Powered"]?.asBool(), !powered {
            throw .poweredOff(adapter)
        }
        for needed in [BlueZNames.gattManager, BlueZNames.advertisingManager] where interfaces[needed] == nil {
            throw .notSupported(adapter: adapter, missing: needed)
        }
        return (try? properties["Address"]?.asString()) ?? "unknown address"
    }
}
