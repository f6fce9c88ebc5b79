import DFUCore
import DeviceSim
import Foundation
import SerialTransport
import Transport
import UDPTransport

/// The virtual SMP device of one run, served on the scenario's link, and what the engine reaches it
/// through: the in-process memory link, a UDP socket on 127.0.0.1 (`VirtualDeviceUDPServer`, as
/// `dfu sim --serve udp:` serves it) or a pseudo-terminal (`VirtualDeviceSerialServer`, as
/// `dfu sim --serve serial:`), the client being what `dfu flash --device udp:…|serial:…` uses, or
/// the BlueZ stand-in on a private bus (`BlueZServedDevice.swift`).
struct ServedDevice {
    /// The serial line's speed: fast, so that a run's real-time share stays small (the
    /// `-115200` rows run at dfu's default instead, `Scenario.slowLineCatalogue`).
    static let serialBaud = 1_000_000

    let connector: any Connector
    let peer: PeerIdentity
    /// The device's state as it is now.
    let snapshot: @Sendable () async -> VirtualDevice
    /// Ends the server and frees its socket or pseudo-terminal; nothing for the memory link.
    let stop: @Sendable () async -> Void
    /// Sets the battery level the device reports (charging it before a rerun). Nothing over UDP
    /// or serial, which have no Battery Service.
    var setBattery: @Sendable (UInt8) async -> Void = { _ in }

    /// `memory`: the connector a memory-link device is served on (`SimSetup`'s).
    /// `movesAfterReboot`: over BlueZ, the device comes back from its first reset under another address.
    /// `baud`: the serial line's speed.
    static func serve(_ options: SimOptions, on link: FaultLink, memory connector: MemoryConnector, clock: LinkClock,
                      scenario: String, movesAfterReboot: Bool = false, baud: Int = serialBaud) async throws(FaultsError) -> ServedDevice {
        switch link {
        case .memory:
            let peripheral: VirtualPeripheral
            do throws(SimOptionsError) {
                peripheral = try await VirtualPeripheral.serve(options, on: connector)
            } catch {
                throw SimSetup.serveFailed(scenario, error)
            }
            return ServedDevice(connector: connector, peer: peripheral.identity,
                                snapshot: { await peripheral.snapshot }, stop: {},
                                setBattery: { await peripheral.setBatteryLevel($0) })
        case .udp:
            let server: VirtualDeviceUDPServer
            do throws(UDPServeError) {
                server = try await VirtualDeviceUDPServer.serve(options, at: "127.0.0.1:0", clock: clock)
            } catch {
                throw .setup("scenario \(scenario): cannot serve the device over UDP: \(error)")
            }
            return ServedDevice(connector: UDPConnector(presenting: .smp), peer: PeerIdentity("udp:\(server.localAddress)"),
                                snapshot: { await server.snapshot }, stop: { await server.stop() })
        case .serial:
            return try await serial(options, clock: clock, scenario: scenario, baud: baud)
        case .bluez:
            return try await bluez(options, memory: connector, scenario: scenario, movesAfterReboot: movesAfterReboot)
        case .process:
            throw .setup("scenario \(scenario): a process-death scenario serves its device itself (ProcessDeathRun)")
        }
    }

    private static func serial(_ options: SimOptions, clock: LinkClock, scenario: String,
                               baud: Int) async throws(FaultsError) -> ServedDevice {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dfu-faults-\(UUID().uuidString)")
        let path = folder.appendingPathComponent("tty").path
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let device = try options.makeDevice(framing: .datagram)
            var serving = SerialServeOptions()
            serving.baud = baud
            let port = try PseudoTerminalPort.open(linkedAt: path)
            let server = VirtualDeviceSerialServer(
                device: device, port: port, serving: serving, clock: clock,
                reopen: { () async throws(SimSerialPortError) -> any SimSerialPort in try PseudoTerminalPort.open(linkedAt: path) })
            await server.start()
            let bytes = SerialConnector(presenting: .smp, settings: try SerialPortSettings(baud: baud))
            let connector = SMPSerialConnector(wrapping: bytes, byteCharacteristic: SMPGATT.characteristic, framing: serving.framing)
            return ServedDevice(connector: connector, peer: PeerIdentity("serial:" + path),
                                snapshot: { await server.snapshot },
                                stop: {
                                    await server.stop()
                                    try? FileManager.default.removeItem(at: folder)
                                })
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw .setup("scenario \(scenario): cannot serve the device on a pseudo-terminal: \(error)")
        }
    }
}
