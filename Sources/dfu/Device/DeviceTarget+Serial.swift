#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import DFUCore
import SerialTransport
import Transport

/// `serial:PATH[,…]`: the port's bytes (`SerialConnector`), framed by the protocol the update file
/// is for: SMP in Zephyr's console framing or raw packets (`SMPSerialConnector`).
extension DeviceTarget {
    /// The protocols dfu updates over a serial port (`dfu scan --serial` marks those rows supported).
    static let serialProtocols: Set<UpdateProtocolName> = [.smp]

    static func serial(_ endpoint: SerialEndpoint, speaking protocolName: UpdateProtocolName,
                       log: @escaping @Sendable (String) -> Void) throws(DFUError) -> DeviceTarget {
        let text = "serial:" + endpoint.description
        let settings: SerialPortSettings
        do throws(SerialPortError) {
            settings = try SerialPortSettings(baud: endpoint.baud, hardwareFlowControl: endpoint.hardwareFlowControl)
        } catch {
            throw .usage("invalid --device '\(text)': \(error)")
        }
        // The connector waits for a missing port (a board that resets comes back); a port that is
        // not there at all when the run starts is a mistake to report at once.
        guard access(endpoint.path, F_OK) == 0 else {
            throw .deviceUnreachable(SerialPortError.missing(path: endpoint.path).description + ".", cause: .link(.timeout))
        }
        guard serialProtocols.contains(protocolName) else {
            throw .usage("Nordic Secure DFU over a serial port is not built in yet; --device \(text) takes MCUboot images")
        }
        let bytes = SerialConnector(presenting: .smp, settings: settings)
        let connector = SMPSerialConnector(wrapping: bytes, byteCharacteristic: SMPGATT.characteristic,
                                           framing: endpoint.raw ? .raw : .console) { note in
            switch note {
            case .text(let line): log("device: \(line)")
            case .dropped(let reason): log("serial: dropped \(reason)")
            }
        }
        let target = UpdateEngine.Target(connector: connector, peer: PeerIdentity("serial:" + endpoint.path), label: text,
                                         speaks: protocolName)
        return DeviceTarget(target: target, clock: .continuous, checksHostPower: true, resource: .none)
    }
}
