import BlueZStandIn

/// A private `dbus-daemon` standing in for the system bus, with nobody owning `org.bluez`: what a
/// machine without bluetoothd looks like to dfu. `dfu` reaches it through `DBUS_SYSTEM_BUS_ADDRESS`.
/// The daemon is `PrivateDBusDaemon` (its policy allows eavesdropping: with `send_destination`
/// alone, dbus-daemon 1.14 never answered `Hello`), always killed by `withBus` with SIGKILL.
enum ScanTestBus {
    /// dbus-daemon's path, or nil when it is not installed (`make deps` installs it).
    static let daemonPath = PrivateDBusDaemon.daemonPath

    /// Runs `body` with the environment that points dfu at a fresh bus, then stops the bus.
    static func withBus<T>(_ body: ([String: String]) throws -> T) throws -> T {
        let daemon = try PrivateDBusDaemon.start()
        defer { daemon.stop() }
        return try body(["DBUS_SYSTEM_BUS_ADDRESS": daemon.address])
    }
}
