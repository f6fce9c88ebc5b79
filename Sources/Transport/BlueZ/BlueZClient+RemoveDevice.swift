import DBusBinding
import Transport

extension BlueZClient {
    /// `Adapter1.RemoveDevice`: bluetoothd disconnects or cancels what it has pending for the
    /// device, deletes its object and its stored keys; heard again, it is a fresh Device1. A
    /// device already gone is success. For `dfu unpair`, a stale bond and stuck connection state.
    func removeDevice(_ path: String, from adapter: BlueZAdapterInfo) async throws(BlueZError) {
        do throws(DBusError) {
            _ = try await call(adapter.path, BlueZNames.adapter, "RemoveDevice", [.objectPath(path)], timeout: .seconds(10))
        } catch {
            // Gone meanwhile is what we wanted.
            if BlueZFailure(error) != .objectGone { throw BlueZError.from(error, adapter: adapter.name) }
        }
    }
}

extension BlueZConnector {
    /// `BlueZClient.removeDevice` for this connector's adapter, in the connector's error terms.
    func removeFromBluetoothd(_ device: BlueZDeviceInfo) async throws(LinkError) {
        do throws(BlueZError) {
            try await client.removeDevice(device.path, from: adapter)
        } catch {
            throw .unavailable(error.description)
        }
    }
}
