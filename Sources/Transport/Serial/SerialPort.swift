#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization
import Transport

/// One open serial port, held exclusively, in raw mode: the byte pipe under `SerialLink`. It opens
/// and sets up the tty and says what its errors mean; reading, writing and ending are the core's
/// `FDPump`'s, which drives a tty like any descriptor.
///
/// Opening (open(2), tty_ioctl(4), flock(2), termios(3)):
/// 1. `open` with `O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC` (`O_NOCTTY`: the port never becomes
///    dfu's controlling terminal, so a hang-up sends no SIGHUP);
/// 2. `tcgetattr`, so a path that is no tty (`/dev/null`) is refused as one;
/// 3. `flock(LOCK_EX | LOCK_NB)`, then `ioctl(TIOCEXCL)`: the lock makes a second dfu see "busy"
///    even as root (whom `TIOCEXCL` does not stop); `TIOCEXCL` stops terminals such as screen that
///    take no lock;
/// 4. raw 8N1 at the speed asked for (`SystemCall.makeRaw`), then `tcflush(TCIFLUSH)`, so bytes
///    that were waiting (a boot banner, an answer to an earlier session) are not read as a reply.
///
/// The pump owns a duplicate of the descriptor; the port keeps the original until the pump ends,
/// then clears `TIOCEXCL` on it and closes it. The lock goes with the last of the two (it belongs
/// to the open file, which both share).
package final class SerialPort: Sendable {
    package enum Event: Sendable {
        /// The next bytes the other end sent (never empty).
        case received([UInt8])
        /// The last event: the port is closed.
        case ended(FDPumpEnd)
    }

    /// The path opened (as given: a by-id link stays one).
    package let path: String
    package let settings: SerialPortSettings
    private let pump: FDPump

    /// The most one read returns; the pump reads again while more waits.
    private static let readSize = 4096

    private init(path: String, settings: SerialPortSettings, pump: FDPump) {
        self.path = path
        self.settings = settings
        self.pump = pump
    }

    /// Opens and sets up the port and starts its pump; events start at once.
    package static func open(_ path: String, settings: SerialPortSettings,
                             deliver: @escaping @Sendable (Event) -> Void) throws(SerialPortError) -> SerialPort {
        let hold = try ExclusiveHold(descriptor: openConfigured(path, settings: settings))
        let pumped: Int32
        do throws(SystemCallError) {
            pumped = try SystemCall.duplicateNonBlocking(hold.descriptor)
        } catch {
            hold.release()
            throw .system(path: path, error)
        }
        do throws(SystemCallError) {
            let pump = try FDPump.start(owning: pumped, policy: FDPumpPolicy(receiveBufferSize: readSize)) { event in
                switch event {
                case .received(let bytes, _):
                    if !bytes.isEmpty { deliver(.received(bytes)) }
                case .ended(let end):
                    hold.release()
                    deliver(.ended(end))
                }
            }
            return SerialPort(path: path, settings: settings, pump: pump)
        } catch {
            // The pump closed its duplicate already.
            hold.release()
            throw .system(path: path, error)
        }
    }

    /// Steps 1 to 4 above; the descriptor returned is open, locked, exclusive and raw.
    private static func openConfigured(_ path: String, settings: SerialPortSettings) throws(SerialPortError) -> Int32 {
        // Settings are checked when made; kept total for a speed termios would not know.
        guard let speed = SystemCall.speed(forBaud: settings.baud) else {
            throw .unsupportedBaud(settings.baud, nearest: SerialPortSettings.nearestSupportedBauds(to: settings.baud))
        }
        let descriptor: Int32
        do throws(SystemCallError) {
            descriptor = try SystemCall.immediate("open") { openDevice(path) }
        } catch {
            throw classify(error, path: path)
        }
        var exclusive = false
        do throws(SystemCallError) {
            try SystemCall.checkTerminal(descriptor)
            if case .wouldBlock = try SystemCall.lockExclusively(descriptor) {
                throw SystemCallError(call: "flock", code: EWOULDBLOCK)
            }
            try SystemCall.makeExclusive(descriptor)
            exclusive = true
            try SystemCall.makeRaw(descriptor, speed: speed, hardwareFlowControl: settings.hardwareFlowControl)
            try SystemCall.discardInput(descriptor)
            return descriptor
        } catch {
            // Only our own TIOCEXCL is undone: a port that was busy keeps its holder's.
            if exclusive { SystemCall.endExclusive(descriptor) }
            SystemCall.closeDescriptor(descriptor)
            throw classify(error, path: path)
        }
    }

    /// `SerialPortError.classify`, with the node's group looked up when permission was denied.
    private static func classify(_ error: SystemCallError, path: String) -> SerialPortError {
        let denied = error.code == EACCES || error.code == EPERM
        return SerialPortError.classify(error, path: path, group: denied ? FileSystem.groupName(of: path) : nil)
    }

    /// Why the port ended; nil while it is open.
    package var end: FDPumpEnd? { pump.end }

    /// Sends all of `bytes`, in order after earlier sends; returns once the kernel took the last
    /// byte, suspending while its output buffer is full.
    package func send(_ bytes: [UInt8]) async -> Result<Void, FDPumpSendFailure> {
        await pump.send(bytes)
    }

    /// Ends the port: queued sends fail, `deliver` gets `.ended(.closed)`. Idempotent.
    package func close() {
        pump.close()
    }

    /// `close()`, then waits until both descriptors are closed, so the port is free for others.
    package func closeAndWait() async {
        await pump.closeAndWait()
    }
}

/// open(2) of a device node as the serial backend opens every one (a file-scope function, so the
/// name means the C call and not `SerialPort.open`).
private func openDevice(_ path: String) -> Int32 {
    open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
}

/// The port's own descriptor, kept beside the pump's duplicate to undo `TIOCEXCL` before the last
/// close; released once, by whichever comes first: the pump's end or a failed start.
private final class ExclusiveHold: Sendable {
    let descriptor: Int32
    private let released = Mutex(false)

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    func release() {
        let first = released.withLock { released in
            defer { released = true }
            return !released
        }
        guard first else { return }
        SystemCall.endExclusive(descriptor)
        SystemCall.closeDescriptor(descriptor)
    }
}
