import DFUCore
import DeviceSim
import Foundation
import SerialTransport
import Transport

/// The virtual nRF52 of one `serial-nordic-*` run on a pseudo-terminal, as `dfu sim --serve
/// serial:PATH[,usb] --protocol nordic` serves it (`NordicSerialServer`: SLIP, in DFU mode from the
/// start, at the row's baud rate, on the campaign's model clock), and the connector `dfu flash
/// PKG.zip --device serial:PATH,baud=N` makes.
struct NordicServedSerial {
    let server: NordicSerialServer
    let peer: PeerIdentity
    let baud: Int
    private let folder: URL

    /// `usb`: the USB CDC ACM transport (MTU 2051; the port vanishes while the device resets).
    static func serve(_ configuration: NordicDeviceConfiguration, usb: Bool, baud: Int, clock: LinkClock,
                      scenario: String) async throws(FaultsError) -> NordicServedSerial {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dfu-faults-\(UUID().uuidString)")
        let path = folder.appendingPathComponent("tty").path
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let server = try await NordicPTYServer.start(configuration, at: path, usb: usb, baud: baud, clock: clock)
            return NordicServedSerial(server: server, peer: PeerIdentity("serial:" + path), baud: baud, folder: folder)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw .setup("scenario \(scenario): cannot serve the device on a pseudo-terminal: \(error)")
        }
    }

    /// dfu's Nordic serial connector (`NordicSerialConnector` over a `SerialConnector` on the path)
    /// with the run's counter between the two (`CountingSerialConnector`).
    func connector(counting counter: UploadCounter) throws(FaultsError) -> any Connector {
        let settings: SerialPortSettings
        do throws(SerialPortError) {
            settings = try SerialPortSettings(baud: baud)
        } catch {
            throw .setup("the serial settings at \(baud) baud: \(error)")
        }
        let bytes = SerialConnector(presenting: NordicSerialLink.byteFace, settings: settings)
        return NordicSerialConnector(wrapping: CountingSerialConnector(inner: bytes, counter: counter))
    }

    /// Ends the server and removes the pseudo-terminal's link.
    func stop() async {
        await server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The device once it has finished starting (`NordicBootWait`).
    func settled(clock: LinkClock) async -> NordicVirtualDevice {
        await NordicBootWait.settled(clock: clock) { await server.snapshot }
    }
}
