#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import BlueZTransport
import Foundation
import Transport

/// The person at the terminal, asked by dfu's pairing agent (`BlueZPairingPrompt`): on
/// `/dev/tty`, never stdout or stderr, so `--json` output and logs stay clean and carry no
/// passkey. Typing is not echoed. Only when standard input is a terminal: a script or CI run
/// never waits for a person.
final class TerminalPairingPrompt: BlueZPairingPrompt {
    private let tty: FileHandle

    private init(tty: FileHandle) {
        self.tty = tty
    }

    /// nil unless standard input is a terminal and /dev/tty opens.
    static func open() -> TerminalPairingPrompt? {
        guard isatty(STDIN_FILENO) == 1 else { return nil }
        let descriptor = Glibc.open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        return TerminalPairingPrompt(tty: FileHandle(fileDescriptor: descriptor, closeOnDealloc: true))
    }

    func enterPasskey(device: String) async -> Passkey? {
        for _ in 0 ..< 3 {
            guard let line = await ask("\(device) requires pairing. Enter the 6-digit passkey it shows (empty to cancel): ",
                                       echo: false) else { return nil }
            if line.isEmpty { return nil }
            if let passkey = Passkey(text: line) { return passkey }
            say("a passkey is six digits, 000000 to 999999")
        }
        return nil
    }

    func confirm(passkey: Passkey, device: String) async -> Bool {
        let answer = await ask("\(device) requires pairing. Does it show \(passkey.digits)? [y/N] ", echo: true)
        return answer.map { ["y", "yes"].contains($0.lowercased()) } ?? false
    }

    func display(passkey: Passkey, device: String) async {
        say("\(device) requires pairing: enter \(passkey.digits) on the device")
    }

    func cancelled() async {
        say("pairing request cancelled")
    }

    private func say(_ text: String) {
        SystemCall.writeAll(text + "\n", to: tty.fileDescriptor)
    }

    /// Reads one line on a thread of its own: a blocking read must not hold a cooperative thread.
    private func ask(_ question: String, echo: Bool) async -> String? {
        let descriptor = tty.fileDescriptor
        return await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            let thread = Thread {
                SystemCall.writeAll(question, to: descriptor)
                var saved = termios()
                let hasTermios = tcgetattr(descriptor, &saved) == 0
                if hasTermios, !echo {
                    var quiet = saved
                    quiet.c_lflag &= ~tcflag_t(ECHO)
                    _ = tcsetattr(descriptor, TCSANOW, &quiet)
                }
                let line = Self.readLine(descriptor)
                if hasTermios, !echo {
                    _ = tcsetattr(descriptor, TCSANOW, &saved)
                    SystemCall.writeAll("\n", to: descriptor)
                }
                continuation.resume(returning: line)
            }
            thread.name = "passkey prompt"
            thread.start()
        }
    }

    /// Up to a newline; nil at end of input or on an error. At most 64 bytes are kept.
    private static func readLine(_ descriptor: Int32) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(descriptor, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { break }
            if bytes.count < 64 { bytes.append(byte) }
        }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }
}
