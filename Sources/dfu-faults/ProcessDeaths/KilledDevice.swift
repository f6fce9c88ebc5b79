import DFUCore
import DeviceSim
import Transport

/// The device model of one killed `dfu flash` run (`Snapshot` its state: an SMP `VirtualDevice`, a
/// `NordicVirtualDevice`), served where a child process can reach it, with what it was sent counted
/// into the run's `UploadCounter`.
struct KilledDevice<Snapshot: Sendable> {
    /// `--device`'s value.
    let device: String
    /// What the children's environment needs beside their journal directory.
    let environment: [String: String]
    let snapshot: @Sendable () async -> Snapshot
    let stop: @Sendable () async -> Void
    /// Puts a serial-only Nordic board that runs its application back in DFU mode; nothing elsewhere.
    var toDFUMode: @Sendable () async -> Void = {}
    /// Cuts a Nordic device's power and restores it: it starts its application. Nothing elsewhere.
    var powerCut: @Sendable () async -> Void = {}
    /// Between a kill and the next command: waits for a USB serial port that vanished to be back.
    var afterKill: @Sendable () async -> Void = {}
}

/// The virtual SMP device: over UDP on 127.0.0.1 behind a counting relay (`--device udp:…`), on a
/// pseudo-terminal (`--device serial:PATH,baud=…`), or behind the BlueZ stand-in on a private bus
/// (`--device ADDRESS`, the bus named by `DBUS_SYSTEM_BUS_ADDRESS`).
extension KilledDevice where Snapshot == VirtualDevice {
    /// `directory`: where a pseudo-terminal's link goes (the run's own).
    static func serve(_ setup: SimSetup, over: ProcessDeath.Over, schedule: KillSchedule, counter: UploadCounter,
                      directory: String, scenario: String) async throws(FaultsError) -> KilledDevice {
        switch over {
        case .wire: return try await udp(setup, schedule: schedule, counter: counter, scenario: scenario)
        case .serial, .usbSerial:
            return try await serial(setup, schedule: schedule, counter: counter, path: directory + "/tty", usb: over == .usbSerial,
                                    scenario: scenario)
        case .bluez: return try await bluez(setup, schedule: schedule, counter: counter, scenario: scenario)
        }
    }

    /// As `dfu sim --serve udp:` serves it, on the campaign's model clock; its own events time the
    /// activation's kill points, the relay counts the upload requests on the wire.
    private static func udp(_ setup: SimSetup, schedule: KillSchedule, counter: UploadCounter,
                            scenario: String) async throws(FaultsError) -> KilledDevice {
        let server: VirtualDeviceUDPServer
        do throws(UDPServeError) {
            server = try await VirtualDeviceUDPServer.serve(setup.options, at: "127.0.0.1:0", clock: setup.clock,
                                                            observer: { event in DeviceStep(event).map { schedule.observe($0) } })
        } catch {
            throw .setup("scenario \(scenario): cannot serve the device over UDP: \(error)")
        }
        let relay: UDPRelay
        do throws(FaultsError) {
            relay = try UDPRelay.start(to: server.localAddress, onUpload: { counter.add($0) })
        } catch {
            await server.stop()
            throw error
        }
        return KilledDevice(device: "udp:\(relay.address)", environment: [:], snapshot: { await server.snapshot },
                            stop: {
                                await relay.stop()
                                await server.stop()
                            })
    }

    /// As `dfu sim --serve serial:PATH` serves it (console framing, `ServedDevice.serialBaud`; a UART,
    /// whose port stays while the device resets, or with `usb` a USB CDC ACM port, which vanishes
    /// and comes back at the same path), on the campaign's model clock; its events time the
    /// activation's kill points, the upload requests counted as the server reads them.
    private static func serial(_ setup: SimSetup, schedule: KillSchedule, counter: UploadCounter, path: String, usb: Bool,
                               scenario: String) async throws(FaultsError) -> KilledDevice {
        do {
            let device = try setup.options.makeDevice(framing: .datagram)
            var serving = SerialServeOptions()
            serving.baud = ServedDevice.serialBaud
            serving.vanishesOnReset = usb
            let framing = serving.framing
            let port = CountingSimSerialPort(try PseudoTerminalPort.open(linkedAt: path), framing: framing, counter: counter)
            let presence = PortPresence()
            let server = VirtualDeviceSerialServer(
                device: device, port: port, serving: serving, clock: setup.clock,
                reopen: { () async throws(SimSerialPortError) -> any SimSerialPort in
                    CountingSimSerialPort(try PseudoTerminalPort.open(linkedAt: path), framing: framing, counter: counter)
                },
                observer: { event in
                    if case .portVanished = event { presence.vanished() }
                    if case .portBack = event { presence.cameBack() }
                    DeviceStep(event).map { schedule.observe($0) }
                })
            await server.start()
            var served = KilledDevice(device: "serial:\(path),baud=\(ServedDevice.serialBaud)", environment: [:],
                                      snapshot: { await server.snapshot }, stop: { await server.stop() })
            // Only a kill at the line's drop meets the port away; a UART's port never goes.
            if usb { served.afterKill = { await presence.waitUntilBack() } }
            return served
        } catch {
            throw .setup("scenario \(scenario): cannot serve the device on a pseudo-terminal: \(error)")
        }
    }

    /// As the `bluez` link serves it; counted as the stand-in hands the device what dfu wrote into
    /// its socket. The activation's kill points are timed by the requests handed on there
    /// (`CountingLink`) and by the peripheral's events (upload completed, reset).
    private static func bluez(_ setup: SimSetup, schedule: KillSchedule, counter: UploadCounter,
                              scenario: String) async throws(FaultsError) -> KilledDevice {
        let peripheral: VirtualPeripheral
        do throws(SimOptionsError) {
            peripheral = try await VirtualPeripheral.serve(setup.options, on: setup.connector,
                                                           observer: { schedule.observe(DeviceStep($0)) })
        } catch {
            throw SimSetup.serveFailed(scenario, error)
        }
        var device = BlueZBus.device(peripheral.identity, name: "dfu-faults", services: [DeviceGATT.smpService], on: setup.connector)
        device.connector = CountingConnector(inner: setup.connector, counter: counter,
                                             onRequest: { schedule.observe(.request($0)) })
        let bus = try await BlueZBus.serve([device], scenario: scenario)
        return KilledDevice(device: peripheral.identity.rawValue, environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.busAddress],
                            snapshot: { await peripheral.snapshot }, stop: { await bus.stop() })
    }
}
