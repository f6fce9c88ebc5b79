#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import DFUCore
import SerialTransport
import Transport

/// `serial:PATH[,…]`: the port's bytes (`SerialConnector`), framed by the protocol the update file
/// is for: SMP in Zephyr's console framing or raw packets (`SMPSerialConnector`), or Nordic Secure
/// DFU in SLIP frames to an nRF5 SDK serial bootloader (`NordicSerialConnector`).
extension DeviceTarget {
    /// The protocols dfu updates over a serial port (`dfu scan --serial` marks those rows supported).
    static let serialProtocols: Set<UpdateProtocolName> = [.smp, .nordic]

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
            throw .deviceUnreachable(SerialPortError.missing(path: endpoint.path).description, cause: .link(.timeout))
        }
        let connector: any Connector
        if protocolName == .nordic {
            connector = try nordicSerial(endpoint, settings: settings, text: text, log: log)
        } else {
            let bytes = SerialConnector(presenting: .smp, settings: settings)
            connector = SMPSerialConnector(wrapping: bytes, byteCharacteristic: SMPGATT.characteristic,
                                           framing: endpoint.raw ? .raw : .console) { note in
                switch note {
                case .text(let line): log("device: \(line)")
                case .dropped(let reason): log("serial: dropped \(reason)")
                }
            }
        }
        let target = UpdateEngine.Target(connector: connector, peer: PeerIdentity("serial:" + endpoint.path), label: text,
                                         speaks: protocolName)
        return DeviceTarget(target: target, clock: .continuous, checksHostPower: true, resource: .none)
    }

    /// A Nordic package: the nRF5 SDK bootloader's serial DFU (SLIP), reached directly in its
    /// bootloader (a serial port has no buttonless entry). `raw` and `recovery` are SMP's words.
    private static func nordicSerial(_ endpoint: SerialEndpoint, settings: SerialPortSettings, text: String,
                                     log: @escaping @Sendable (String) -> Void) throws(DFUError) -> any Connector {
        if endpoint.raw || endpoint.recovery {
            throw .usage("--device \(text): \(endpoint.raw ? "raw" : "recovery") applies to MCUboot images (SMP); a Nordic "
                         + "package goes to the nRF5 bootloader's serial DFU as it is: serial:\(endpoint.path)"
                         + (endpoint.baud != SerialEndpoint.defaultBaud ? ",baud=\(endpoint.baud)" : ""))
        }
        let bytes = SerialConnector(presenting: NordicSerialLink.byteFace, settings: settings)
        return NordicSerialConnector(wrapping: bytes) { note in
            switch note {
            case .dropped(let reason): log("serial: dropped \(reason)")
            case .unexpected(let answer): log("serial: an answer nobody waited for: \(answer)")
            }
        }
    }
}
