import DeviceSim

/// What `dfu sim` needs of a running server, whichever way it serves: stop it, or learn that it
/// stopped by itself.
protocol SimServer: Actor {
    func stop() async
    func waitUntilStopped() async
}

extension VirtualDeviceUDPServer: SimServer {}
extension BlueZPeripheral: SimServer {}
