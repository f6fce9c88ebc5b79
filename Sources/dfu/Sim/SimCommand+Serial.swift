import DFUCore
import DeviceSim
import ExitCodes
import Transport

/// `dfu sim --serve serial:PATH,…`.
extension SimCommand {
    func serveSerial(_ options: SimOptions, on spec: SerialServeSpec, console: Console,
                     signals: StopSignals) async throws(DFUError) -> ExitStatus {
        let device: VirtualDevice
        do throws(SimOptionsError) {
            device = try options.makeDevice(framing: .datagram)
        } catch {
            throw .usage(self.device.usageError(error).message)
        }
        let port: PseudoTerminalPort
        do throws(SimSerialPortError) {
            port = try PseudoTerminalPort.open(linkedAt: spec.path)
        } catch {
            throw .usage("cannot serve on serial:\(spec.path): \(error)")
        }
        let path = spec.path
        let server = VirtualDeviceSerialServer(
            device: device, port: port, serving: spec.options,
            reopen: { () async throws(SimSerialPortError) -> any SimSerialPort in try PseudoTerminalPort.open(linkedAt: path) },
            observer: { event in
                if event.isLifecycle {
                    console.out("dfu sim: \(event)")
                } else {
                    console.log("sim: \(event)")
                }
            })
        await server.start()
        let serving = spec.options
        console.out("dfu sim: serving SMP on serial \(path) (\(port.terminal.devicePath), \(serving.baud) baud, "
            + "\(serving.framing) framing\(serving.vanishesOnReset ? ", USB" : "")) "
            + "(device \(device.identity), version \(device.runningVersionText))")
        if await server.serveUntilStopped(options: options, console: console, signals: signals) {
            await server.stop()
            return .success
        }
        throw .internalError("the serial server stopped by itself")
    }
}
