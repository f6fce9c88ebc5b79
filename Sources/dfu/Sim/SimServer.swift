import DeviceSim

/// What `dfu sim` needs of a running server, whichever way it serves: stop it, learn that it
/// stopped by itself, and read the device's state.
protocol SimServer: Actor {
    func stop() async
    func waitUntilStopped() async
    /// Resets so far and what the device runs now, for the last line.
    var resets: Int { get async }
    var running: String { get async }
}

extension VirtualDeviceUDPServer: SimServer {
    var resets: Int { snapshot.boots.count }
    var running: String { snapshot.runningVersionText }
}

extension VirtualDeviceSerialServer: SimServer {
    var resets: Int { snapshot.boots.count }
    var running: String {
        inRecovery ? "MCUboot serial recovery (\(snapshot.runningVersionText) in the primary slot)" : snapshot.runningVersionText
    }
}

extension NordicSerialServer: SimServer {
    var resets: Int { snapshot.boots.count }
}

extension BlueZPeripheral: SimServer {
    var resets: Int { model.bootCount }
    var running: String { model.runningVersion }
}

extension SimServer {
    /// Logs the device options, then serves until a stop signal or the server's own end. A stop by
    /// signal is reported with the device's final state and returns true; false means the server
    /// ended by itself (the caller says why).
    nonisolated func serveUntilStopped(options: SimOptions, console: Console, signals: StopSignals) async -> Bool {
        console.log("sim: device options \(options.canonicalText)")
        guard case .signal(let name) = await SimEnding.first(of: self, signals: signals) else { return false }
        console.out("dfu sim: stopped by \(name) after \(await resets) reset(s), running \(await running)")
        return true
    }
}
