import SerialTransport

/// A pseudo-terminal as the port the sim serves on: clients open `devicePath` (or the link at
/// `linkPath`) as they would a USB serial port.
public struct PseudoTerminalPort: SimSerialPort {
    public let terminal: PseudoTerminal

    /// Makes a pseudo-terminal linked at `path`.
    public static func open(linkedAt path: String) throws(SimSerialPortError) -> PseudoTerminalPort {
        do throws(PseudoTerminalError) {
            return PseudoTerminalPort(terminal: try PseudoTerminal.open(linkedAt: path))
        } catch {
            throw SimSerialPortError(error.description)
        }
    }

    public var received: AsyncStream<[UInt8]> { terminal.received }

    public func send(_ bytes: [UInt8]) async -> Bool {
        do throws(PseudoTerminalError) {
            try await terminal.write(bytes)
            return true
        } catch {
            return false
        }
    }

    public func close() async { await terminal.close() }
}
