import DeviceSim

/// What `dfu sim` needs of a running server, whichever way it serves: stop it, learn that it
/// stopped by itself, and read the device's state.
protocol SimServer: Actor {
    func stop() async
    func waitUntilStopped() async
    var snapshot: VirtualDevice { get async }
}

extension VirtualDeviceUDPServer: SimServer {}
extension BlueZPeripheral: SimServer {}

extension SimServer {
    /// Logs the device options, then serves until a stop signal or the server's own end. A stop by
    /// signal is reported with the device's final state and returns true; false means the server
    /// ended by itself (the caller says why).
    nonisolated func serveUntilStopped(options: SimOptions, console: Console, signals: StopSignals) async -> Bool {
        console.log("sim: device options \(options.canonicalText)")
        guard case .signal(let name) = await SimEnding.first(of: self, signals: signals) else { return false }
        let device = await snapshot
        console.out("dfu sim: stopped by \(name) after \(device.boots.count) reset(s), "
            + "running \(device.firmwareRevision)")
        return true
    }
}
