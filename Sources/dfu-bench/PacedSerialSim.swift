import DFUCore
import DeviceSim
import Foundation
import SerialTransport
import Transport

/// The virtual device served in this process on a pseudo-terminal paced at `baud` both ways, as
/// `dfu sim --serve serial:PATH,baud=N` serves it (`VirtualDeviceSerialServer`: 2475-byte buffers
/// × 4, console framing), with flash taking no time, so the line is what a client's upload meets.
/// The port is linked at `path` in a folder of its own; `stop()` ends the server and removes it.
final class PacedSerialSim: Sendable {
    let baud: Int
    /// Where a client opens the port (`serial:PATH,baud=N`).
    let path: String
    private let folder: URL
    private let server: VirtualDeviceSerialServer

    private init(baud: Int, path: String, folder: URL, server: VirtualDeviceSerialServer) {
        self.baud = baud
        self.path = path
        self.folder = folder
        self.server = server
    }

    static func start(baud: Int) async throws -> PacedSerialSim {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dfu-bench-serial-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("tty").path
        do {
            var configuration = try SimOptions.parse("sim:slot_size=\(BenchDevice.slotSize)").deviceConfiguration(framing: .datagram)
            configuration.flashTiming = .instant
            var serving = SerialServeOptions()
            serving.baud = baud
            let port = try PseudoTerminalPort.open(linkedAt: path)
            let server = VirtualDeviceSerialServer(
                device: try VirtualDevice(configuration: configuration), port: port, serving: serving,
                reopen: { () async throws(SimSerialPortError) -> any SimSerialPort in try PseudoTerminalPort.open(linkedAt: path) })
            await server.start()
            return PacedSerialSim(baud: baud, path: path, folder: folder, server: server)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    func stop() async {
        await server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The line's ceiling for SMP in the console framing: baud / 10 bytes a second (8N1), times
    /// the framing's share of packet bytes on the wire.
    static func ceiling(baud: Int) -> Double {
        Double(baud) / 10 * SMPStreamFraming.console.efficiency
    }
}
