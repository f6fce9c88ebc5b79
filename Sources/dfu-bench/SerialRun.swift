import DFUCore
import Foundation
import SerialTransport
import Transport

/// One upload to `dfu sim --serve serial:` as dfu makes it, both in this process: the virtual
/// device served on a pseudo-terminal paced at `baud` (`PacedSerialSim`: 2475-byte buffers × 4,
/// flash taking no time, so the line is what is measured), and `UpdateEngine` in
/// upload-only mode over the port (`SerialConnector` and SMP's console framing), as
/// `dfu flash --device serial:PATH,baud=N --mode upload-only` runs it.
struct SerialRun {
    let baud: Int
    let image: ImageFile

    func measure() async throws -> SerialMeasurement {
        let sim = try await PacedSerialSim.start(baud: baud)
        do {
            let measurement = try await upload(to: sim.path)
            await sim.stop()
            return measurement
        } catch {
            await sim.stop()
            throw error
        }
    }

    private func upload(to path: String) async throws -> SerialMeasurement {
        let bytes = SerialConnector(presenting: .smp, settings: try SerialPortSettings(baud: baud))
        let connector = SMPSerialConnector(wrapping: bytes, byteCharacteristic: SMPGATT.characteristic, framing: .console)
        var options = UpdateOptions()
        options.mode = .uploadOnly
        let engine = UpdateEngine(image: image.bytes, imageName: image.name, key: try PublicKey.defaultBootloaderKey(),
                                  options: options,
                                  target: UpdateEngine.Target(connector: connector, peer: PeerIdentity("serial:" + path), speaks: .smp),
                                  hostPower: .mains)
        let run = engine.start()
        var transfer: Double?
        var window = 1
        for await event in run.events {
            switch event {
            case .stageFinished(.transfer, let duration): transfer = duration.seconds
            case .connected(let link): window = link.window
            default: break
            }
        }
        _ = try await run.result.value.get()
        guard let transfer, transfer > 0 else { throw BenchError.setup("no transfer stage was reported") }
        let ceiling = PacedSerialSim.ceiling(baud: baud)
        return SerialMeasurement(baud: baud, framing: SMPStreamFraming.console.rawValue, bytes: image.bytes.count,
                                 transferSeconds: transfer, goodput: Double(image.bytes.count) / transfer, ceiling: ceiling,
                                 window: window)
    }
}
