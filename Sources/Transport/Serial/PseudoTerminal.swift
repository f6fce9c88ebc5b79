#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization
import Transport

/// A pseudo-terminal (pty(7)) playing a board's serial port: its device side (`/dev/pts/N`) is
/// what a client opens as it would open `/dev/ttyACM0`, and this end (the controller, "master")
/// is the board. For the virtual device served on a tty and for tests, with no hardware.
///
///     let pty = try PseudoTerminal.open(linkedAt: "/tmp/dfu-board")   // a link to /dev/pts/N
///     for await bytes in pty.received { try await pty.write(reply(to: bytes)) }
///     await pty.close()                  // clients see the port vanish; the link is removed
///
/// - Made as posix_openpt(3), grantpt(3), unlockpt(3) and ptsname(3) make one on Linux: `open`
///   of `/dev/ptmx`, `ioctl(TIOCSPTLCK, 0)` and `ioctl(TIOCGPTN)`. Swift's Glibc module does not
///   offer those four functions (they need `_XOPEN_SOURCE`); `grantpt` has nothing to do on devpts.
/// - The device side is set raw (no echo, no CR/LF translation), and this end keeps a descriptor
///   of it open for its whole life: without one, the controller reads `EIO` (a hang-up) each time
///   the last client closes, and the device side would lose its settings between clients.
/// - Reads and writes go through the core's `FDPump`: `received` yields each chunk read, in order;
///   `write` suspends while the device side's input buffer is full (no client reading).
/// - `close()` removes the link and closes both ends: a client sees a hang-up, as when a USB
///   port vanishes. A new `PseudoTerminal` linked at the same path is the port coming back.
public final class PseudoTerminal: Sendable {
    /// The device side, `/dev/pts/N`.
    public let devicePath: String
    /// The symbolic link to `devicePath`, when one was asked for.
    public let linkPath: String?
    /// What clients wrote, chunk by chunk in arrival order, for ONE consumer; buffered without
    /// limit; finishes when the pseudo-terminal closes.
    public let received: AsyncStream<[UInt8]>
    private let pump: FDPump
    /// This end's descriptor of the device side; nil once closed.
    private let deviceSide: Mutex<Int32?>
    /// Whether the link is still ours to remove: once this end closes, its pts number may go to a
    /// new pseudo-terminal linked at the same path (a USB port coming back), whose link a second
    /// removal (`close()` again, or `deinit`) would take away.
    private let linkPending = Mutex(true)

    /// `TIOCGPTN` and `TIOCSPTLCK`, which Swift does not import (`_IOR`/`_IOW` macros): the
    /// values of asm-generic/ioctls.h, which x86-64 and arm64 use.
    private static let getPTYNumber: UInt = 0x8004_5430
    private static let setPTYLock: UInt = 0x4004_5431
    /// The most one read returns.
    private static let readSize = 4096

    private init(devicePath: String, linkPath: String?, received: AsyncStream<[UInt8]>, pump: FDPump, deviceSide: Int32) {
        self.devicePath = devicePath
        self.linkPath = linkPath
        self.received = received
        self.pump = pump
        self.deviceSide = Mutex(deviceSide)
    }

    deinit {
        removeLinkOnce()
        pump.close()
        releaseDeviceSide()
    }

    /// Makes the pseudo-terminal and, with `path`, a symbolic link there to its device side
    /// (replacing an existing symbolic link; anything else at `path` is refused).
    public static func open(linkedAt path: String? = nil) throws(PseudoTerminalError) -> PseudoTerminal {
        let controller: Int32
        let devicePath: String
        let deviceSide: Int32
        do throws(SystemCallError) {
            controller = try SystemCall.immediate("open(/dev/ptmx)") { openNode("/dev/ptmx") }
            do throws(SystemCallError) {
                var unlock: Int32 = 0
                _ = try SystemCall.immediate("ioctl(TIOCSPTLCK)") { ioctl(controller, setPTYLock, &unlock) }
                var number: UInt32 = 0
                _ = try SystemCall.immediate("ioctl(TIOCGPTN)") { ioctl(controller, getPTYNumber, &number) }
                devicePath = "/dev/pts/\(number)"
                deviceSide = try SystemCall.immediate("open") { openNode(devicePath) }
            } catch {
                SystemCall.closeDescriptor(controller)
                throw error
            }
            do throws(SystemCallError) {
                try SystemCall.makeRaw(deviceSide, speed: nil, hardwareFlowControl: false)
            } catch {
                SystemCall.closeDescriptor(deviceSide)
                SystemCall.closeDescriptor(controller)
                throw error
            }
        } catch {
            throw .system(error)
        }
        if let path {
            do throws(FileSystem.PlaceLinkFailure) {
                try FileSystem.placeSymbolicLink(at: path, to: devicePath)
            } catch {
                SystemCall.closeDescriptor(deviceSide)
                SystemCall.closeDescriptor(controller)
                switch error {
                case .occupied: throw .pathTaken(path)
                case .system(let error): throw .link(path: path, error)
                }
            }
        }
        let (received, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        do throws(SystemCallError) {
            // EIO on the controller means no descriptor of the device side is open: not while ours is.
            let policy = FDPumpPolicy(receiveBufferSize: readSize, hangUpCodes: [EIO])
            let pump = try FDPump.start(owning: controller, policy: policy) { event in
                switch event {
                case .received(let bytes, _): if !bytes.isEmpty { continuation.yield(bytes) }
                case .ended: continuation.finish()
                }
            }
            return PseudoTerminal(devicePath: devicePath, linkPath: path, received: received, pump: pump,
                                  deviceSide: deviceSide)
        } catch {
            continuation.finish()
            SystemCall.closeDescriptor(deviceSide)
            if let path { FileSystem.removeSymbolicLink(at: path, ifPointingTo: devicePath) }
            throw .system(error)
        }
    }

    /// Sends `bytes` to the client, in order after earlier writes; returns once the kernel took the
    /// last byte, suspending while the device side's input buffer is full.
    public func write(_ bytes: [UInt8]) async throws(PseudoTerminalError) {
        switch await pump.send(bytes) {
        case .success: return
        case .failure(.cancelled): throw .cancelled
        case .failure(.ended(.failed(let error))), .failure(.refused(let error)): throw .system(error)
        case .failure(.ended(.closed)), .failure(.ended(.hangUp)): throw .closed
        }
    }

    /// Removes the link (if it still leads here), then closes both ends: clients see a hang-up and
    /// the device path disappears. `received` finishes. Idempotent.
    public func close() async {
        removeLinkOnce()
        await pump.closeAndWait()
        releaseDeviceSide()
    }

    private func removeLinkOnce() {
        let pending = linkPending.withLock { pending in
            defer { pending = false }
            return pending
        }
        if pending, let linkPath { FileSystem.removeSymbolicLink(at: linkPath, ifPointingTo: devicePath) }
    }

    private func releaseDeviceSide() {
        guard let descriptor = deviceSide.withLock({ side in
            defer { side = nil }
            return side
        }) else { return }
        SystemCall.closeDescriptor(descriptor)
    }
}

/// open(2) of a tty node as the pseudo-terminal opens both of its ends (a file-scope function, so
/// the name means the C call and not `PseudoTerminal.open`).
private func openNode(_ path: String) -> Int32 {
    open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
}
