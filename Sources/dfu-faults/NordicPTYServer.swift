import DeviceSim
import SerialTransport
import Transport

/// A virtual nRF52's bootloader served on a pseudo-terminal linked at `path`, as `dfu sim --serve
/// serial:PATH --protocol nordic` serves it: SLIP, in DFU mode from the start, at `baud`
/// (`ServedDevice.serialBaud` unless given), on the run's model clock, the same path opened again when a USB port
/// comes back. Started; the caller stops it.
enum NordicPTYServer {
    /// `usb`: the port vanishes while the device resets (USB CDC ACM). `observer`: what the
    /// bootloader is sent and does, as it happens.
    static func start(_ configuration: NordicDeviceConfiguration, at path: String, usb: Bool = false,
                      baud: Int = ServedDevice.serialBaud, clock: LinkClock,
                      observer: @escaping @Sendable (NordicSerialServerEvent) -> Void = { _ in })
        async throws(SimSerialPortError) -> NordicSerialServer {
        var serving = SerialServeOptions()
        serving.baud = baud
        serving.vanishesOnReset = usb
        let server = NordicSerialServer(
            model: NordicVirtualDevice(configuration: configuration, inBootloaderAt: clock.now),
            port: try PseudoTerminalPort.open(linkedAt: path), serving: serving, clock: clock,
            reopen: { () async throws(SimSerialPortError) -> any SimSerialPort in try PseudoTerminalPort.open(linkedAt: path) },
            observer: observer)
        await server.start()
        return server
    }
}
