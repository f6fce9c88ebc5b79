import DFUCore
import DeviceSim
import ExitCodes
import Transport

/// `dfu sim --serve serial:PATH,…`.
extension SimCommand {
    func serveSerial(_ options: SimOptions, on spec: SerialServeSpec, console: Console,
                     signals: StopSignals) async throws(DFUError) -> ExitStatus {
        if options.simProtocol == .nordic {
            return try await serveNordicSerial(options, on: spec, console: console, signals: signals)
        }
        let device: VirtualDevice
        do throws(SimOptionsError) {
            device = try options.makeDevice(framing: .datagram)
        } catch {
            throw .usage(self.device.usageError(error).message)
        }
        let (port, reopen) = try Self.serialPort(at: spec.path)
        let path = spec.path
        let server = VirtualDeviceSerialServer(
            device: device, port: port, serving: spec.options,
            reopen: reopen, observer: { event in Self.show(event, lifecycle: event.isLifecycle, on: console) })
        await server.start()
        let serving = spec.options
        let line = [serving.vanishesOnReset ? "USB" : nil, serving.startsInRecovery ? "MCUboot serial recovery" : nil,
                    serving.applicationSilent ? "application silent" : nil].compactMap { $0 }
        console.out("dfu sim: serving SMP on serial \(path) (\(port.terminal.devicePath), \(serving.baud) baud, "
            + "\(serving.framing) framing\(line.map { ", " + $0 }.joined())) "
            + "(device \(device.identity), version \(device.runningVersionText))")
        if await server.serveUntilStopped(options: options, console: console, signals: signals) {
            await server.stop()
            return .success
        }
        throw .internalError("the serial server stopped by itself")
    }

    /// `--protocol nordic`: the nRF52's bootloader on the line (SLIP, the nRF5 SDK's serial DFU),
    /// in DFU mode from the start.
    private func serveNordicSerial(_ options: SimOptions, on spec: SerialServeSpec, console: Console,
                                   signals: StopSignals) async throws(DFUError) -> ExitStatus {
        let configuration: NordicDeviceConfiguration
        do throws(SimOptionsError) {
            configuration = try options.nordicDeviceConfiguration()
        } catch {
            throw .usage(self.device.usageError(error).message)
        }
        let (port, reopen) = try Self.serialPort(at: spec.path)
        let path = spec.path
        let clock = LinkClock.realTime()
        let server = NordicSerialServer(
            model: NordicVirtualDevice(configuration: configuration, inBootloaderAt: clock.now), port: port,
            serving: spec.options, clock: clock,
            reopen: reopen, observer: { event in Self.show(event, lifecycle: event.isLifecycle, on: console) })
        await server.start()
        let serving = spec.options
        let version = configuration.bootloader.appVersion
        console.out("dfu sim: serving Nordic Secure DFU on serial \(path) (\(port.terminal.devicePath), \(serving.baud) baud, "
            + "\(serving.vanishesOnReset ? "USB" : "UART"), MTU \(server.mtu)) (device \(configuration.identity), "
            + "\(configuration.bootloader.chip.name) bootloader in DFU mode, application \(NordicAppVersion.text(version)) "
            + "(fw_version \(version)))")
        if await server.serveUntilStopped(options: options, console: console, signals: signals) {
            await server.stop()
            return .success
        }
        throw .internalError("the serial server stopped by itself")
    }

    /// The pseudo-terminal linked at `path`, and how to open it again after a USB-style vanish.
    private static func serialPort(at path: String) throws(DFUError) -> (PseudoTerminalPort, SimSerialPortOpener) {
        do throws(SimSerialPortError) {
            let port = try PseudoTerminalPort.open(linkedAt: path)
            return (port, { () async throws(SimSerialPortError) -> any SimSerialPort in try PseudoTerminalPort.open(linkedAt: path) })
        } catch {
            throw .usage("cannot serve on serial:\(path): \(error)")
        }
    }

    /// A server's event: lifecycle lines on stdout, the rest only with `--verbose`.
    private static func show(_ event: some CustomStringConvertible, lifecycle: Bool, on console: Console) {
        if lifecycle {
            console.out("dfu sim: \(event)")
        } else {
            console.log("sim: \(event)")
        }
    }
}
