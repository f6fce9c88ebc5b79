extension BlueZConnector {
    /// `Adapter1.RemoveDevice`: bluetoothd disconnects or cancels what it has pending for the
    /// device, deletes its object and its stored keys; heard again, it is a fresh Device1. For
    /// a stale bond and for stuck connection state, never on the user's bond otherwise.
    func removeFromBluetoothd(_ device: BlueZDeviceInfo) async throws(LinkError) {
        do throws(DBusError) {
            _ = try await client.call(adapter.path, BlueZName.adapter, "RemoveDevice", [.objectPath(device.path)],
                                      timeout: .seconds(10))
        } catch {
            // Gone meanwhile is what we wanted.
            if BlueZFailure(error) != .objectGone {
                throw .unavailable(BlueZError.from(error, adapter: adapter.name).description)
            }
        }
    }
}
