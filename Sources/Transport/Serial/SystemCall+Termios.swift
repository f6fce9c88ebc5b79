#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Transport

/// The terminal calls of the serial backend (termios(3), tty_ioctl(4)): raw mode, the line speed,
/// exclusive use, flushing.
extension SystemCall {
    /// Sets `descriptor`'s terminal to raw 8N1: `cfmakeraw` (no echo, no line editing, no signals,
    /// no CR/LF translation either way, so every byte passes as sent), 8 data bits, no parity, one
    /// stop bit, `CLOCAL` (ignore modem lines: a board's CDC ACM port has no carrier) and `CREAD`,
    /// RTS/CTS when `hardwareFlowControl`, the speed when given (a pty has none that matters).
    ///
    /// `VMIN` = 1, `VTIME` = 0, not 0/0: the descriptor is non-blocking, and with `VMIN` = 0 a read
    /// with nothing waiting returns 0 instead of `EAGAIN` (n_tty_read in the kernel's
    /// drivers/tty/n_tty.c checks the zero timeout before `O_NONBLOCK`), which the fd pump could not
    /// tell from a hang-up; with `VMIN` = 1 it returns `EAGAIN` and `poll` says when bytes came.
    static func makeRaw(_ descriptor: Int32, speed: speed_t?, hardwareFlowControl: Bool) throws(SystemCallError) {
        var settings = termios()
        _ = try immediate("tcgetattr") { tcgetattr(descriptor, &settings) }
        cfmakeraw(&settings)
        settings.c_cflag &= ~(tcflag_t(CSIZE) | tcflag_t(PARENB) | tcflag_t(CSTOPB) | tcflag_t(CRTSCTS))
        settings.c_cflag |= tcflag_t(CS8) | tcflag_t(CLOCAL) | tcflag_t(CREAD)
        if hardwareFlowControl { settings.c_cflag |= tcflag_t(CRTSCTS) }
        withUnsafeMutableBytes(of: &settings.c_cc) { controlCharacters in
            controlCharacters[Int(VMIN)] = 1
            controlCharacters[Int(VTIME)] = 0
        }
        if let speed {
            _ = try immediate("cfsetispeed") { cfsetispeed(&settings, speed) }
            _ = try immediate("cfsetospeed") { cfsetospeed(&settings, speed) }
        }
        _ = try immediate("tcsetattr") { tcsetattr(descriptor, TCSANOW, &settings) }
    }

    /// Whether `descriptor` is a terminal: `ENOTTY` from `tcgetattr` when it is not.
    static func checkTerminal(_ descriptor: Int32) throws(SystemCallError) {
        var settings = termios()
        _ = try immediate("tcgetattr") { tcgetattr(descriptor, &settings) }
    }

    /// `TIOCEXCL`: further opens of the tty fail with `EBUSY` (except for root, whom it does not stop).
    static func makeExclusive(_ descriptor: Int32) throws(SystemCallError) {
        _ = try immediate("ioctl(TIOCEXCL)") { ioctl(descriptor, UInt(TIOCEXCL)) }
    }

    /// `TIOCNXCL`: undoes `TIOCEXCL`. The flag belongs to the tty, not to this descriptor, and a
    /// tty another descriptor keeps open (a pty's own end of the virtual device) would stay
    /// exclusive after we close.
    static func endExclusive(_ descriptor: Int32) {
        _ = ioctl(descriptor, UInt(TIOCNXCL))
    }

    /// `flock(LOCK_EX | LOCK_NB)`: the lock every dfu takes on the port, which root cannot ignore
    /// as it ignores `TIOCEXCL`. `.wouldBlock` when another open file holds it (flock(2)).
    static func lockExclusively(_ descriptor: Int32) throws(SystemCallError) -> SyscallOutcome<Int32> {
        try syscall("flock") { flock(descriptor, LOCK_EX | LOCK_NB) }
    }

    /// Drops what arrived before we opened (`tcflush(TCIFLUSH)`), so stale bytes are not read as a reply.
    static func discardInput(_ descriptor: Int32) throws(SystemCallError) {
        _ = try immediate("tcflush") { tcflush(descriptor, TCIFLUSH) }
    }

    /// The termios speed constant for `baud`; nil for a speed termios has no constant for.
    static func speed(forBaud baud: Int) -> speed_t? {
        let constant: Int32
        switch baud {
        case 1_200: constant = B1200
        case 1_800: constant = B1800
        case 2_400: constant = B2400
        case 4_800: constant = B4800
        case 9_600: constant = B9600
        case 19_200: constant = B19200
        case 38_400: constant = B38400
        case 57_600: constant = B57600
        case 115_200: constant = B115200
        case 230_400: constant = B230400
        case 460_800: constant = B460800
        case 500_000: constant = B500000
        case 576_000: constant = B576000
        case 921_600: constant = B921600
        case 1_000_000: constant = B1000000
        case 1_152_000: constant = B1152000
        case 1_500_000: constant = B1500000
        case 2_000_000: constant = B2000000
        case 2_500_000: constant = B2500000
        case 3_000_000: constant = B3000000
        case 3_500_000: constant = B3500000
        case 4_000_000: constant = B4000000
        default: return nil
        }
        return speed_t(constant)
    }
}
