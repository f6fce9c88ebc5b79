import DBusBinding

/// Starting and stopping discovery on one adapter for this client (bluez-dbus.md §1.2).
///
/// BlueZ keeps one discovery session and one filter per D-Bus client and adapter, and merges the
/// filters of all clients: whoever starts must stop and clear its filter on every exit path, and
/// must re-check what it hears (`BlueZScanFilter.matches`).
extension BlueZClient {
    /// Sets the filter and starts discovery. StartDiscovery's InProgress means this client already
    /// discovers (a scan of ours still running): that is fine. NotReady → `.adapterPoweredOff`.
    func startDiscovery(on adapter: BlueZAdapterInfo, filter: BlueZScanFilter) async throws(BlueZError) {
        do throws(DBusError) {
            _ = try await call(adapter.path, BlueZNames.adapter, "SetDiscoveryFilter", [filter.discoveryFilter])
        } catch {
            throw BlueZError.from(error, adapter: adapter.name, discovery: true)
        }
        do throws(DBusError) {
            _ = try await call(adapter.path, BlueZNames.adapter, "StartDiscovery")
        } catch {
            if case .remote(let name, _) = error, name == "org.bluez.Error.InProgress" { return }
            await stopDiscovery(on: adapter)
            throw BlueZError.from(error, adapter: adapter.name, discovery: true)
        }
    }

    /// Stops this client's discovery and clears its filter, even when the calling task is
    /// cancelled. Errors are ignored: NotReady (powered off) and "No discovery started" mean there
    /// is nothing to stop, and a broken bus takes our session with it.
    func stopDiscovery(on adapter: BlueZAdapterInfo) async {
        _ = await callDetached(adapter.path, BlueZNames.adapter, "StopDiscovery")
        _ = await callDetached(adapter.path, BlueZNames.adapter, "SetDiscoveryFilter", [.properties([:])])
    }
}
