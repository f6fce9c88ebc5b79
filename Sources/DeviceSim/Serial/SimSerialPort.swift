/// The device's end of the serial line the sim serves on (a pseudo-terminal's controller side):
/// what the client wrote arrives on `received`; `send` writes to the client. Closing it makes the
/// port vanish for the client, as a USB CDC ACM port does when its board resets.
public protocol SimSerialPort: Sendable {
    /// Chunks the client wrote, in order; finishes when the port is closed.
    var received: AsyncStream<[UInt8]> { get }
    /// Writes `bytes` to the client, suspending while its buffers are full. False when the port is
    /// closed (the bytes are lost, as on a wire nobody listens to).
    func send(_ bytes: [UInt8]) async -> Bool
    /// Closes the port; the client sees it vanish. Calling it again does nothing.
    func close() async
}

/// Opens the port again (after a USB-style vanish), at the same path. Throws a sentence saying why not.
public typealias SimSerialPortOpener = @Sendable () async throws(SimSerialPortError) -> any SimSerialPort

/// Why the sim could not open its port.
public struct SimSerialPortError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
