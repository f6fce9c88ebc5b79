#if canImport(Glibc)
import Glibc
#endif
import Harness
import Synchronization
import Testing
import SerialTransport
@testable import Transport

/// A write to a serial port waits while the line is full: here a pseudo-terminal whose other end
/// is read slowly by a plain blocking thread (no pump that would drain it at once), so the
/// kernel's buffer (a few KiB) fills again and again during a 1 MiB transfer.
@Suite(.timeLimit(.minutes(2))) struct SerialBackPressureTests {
    static let total = 1 << 20

    @Test func aMebibyteArrivesWholeAndInOrderThroughASlowReader() async throws {
        let controller = try SlowControllerEnd()
        let link = try SerialLink.open(controller.devicePath, presenting: .test, maxWriteSize: 65_536)
        let sent = SerialTestSupport.pattern(Self.total, seed: 11)

        // Reads 1 KiB at a time with a pause between reads: slower than the writer.
        let heard = Task { try await HangGuard.within("1 MiB at the slow reader") { await controller.read(Self.total) } }
        let writes = Task {
            for start in stride(from: 0, to: Self.total, by: 65_536) {
                try await link.writeWithoutResponse(Array(sent[start..<start + 65_536]), to: DatagramGATTFace.test.characteristic)
            }
        }
        try await writes.value
        let received = try await heard.value
        #expect(received.count == sent.count)
        #expect(received == sent)
        await link.disconnect()
        controller.close()
    }
}

/// The controller end of a pseudo-terminal, read with blocking `read`s on a thread of its own.
private final class SlowControllerEnd: Sendable {
    let devicePath: String
    private let descriptor: Int32
    private static let setPTYLock: UInt = 0x4004_5431
    private static let getPTYNumber: UInt = 0x8004_5430

    init() throws {
        let controller = try SystemCall.immediate("open") { open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        do {
            _ = try SystemCall.immediate("ioctl") { ioctl(controller, Self.setPTYLock, &unlock) }
            _ = try SystemCall.immediate("ioctl") { ioctl(controller, Self.getPTYNumber, &number) }
        } catch {
            SystemCall.closeDescriptor(controller)
            throw error
        }
        descriptor = controller
        devicePath = "/dev/pts/\(number)"
    }

    /// Reads until `count` bytes came (or the read fails), 1 KiB per read, on a thread of its own.
    func read(_ count: Int) async -> [UInt8] {
        let descriptor = descriptor
        return await withCheckedContinuation { continuation in
            do {
                try SystemCall.startThread {
                    var bytes: [UInt8] = []
                    var buffer = [UInt8](repeating: 0, count: 1024)
                    while bytes.count < count {
                        let got = Glibc.read(descriptor, &buffer, buffer.count)
                        if got < 0 && errno == EINTR { continue }
                        guard got > 0 else { break }
                        bytes += buffer.prefix(got)
                        usleep(100)  // slow on purpose: the writer must wait for it
                    }
                    continuation.resume(returning: bytes)
                }
            } catch {
                continuation.resume(returning: [])
            }
        }
    }

    func close() {
        SystemCall.closeDescriptor(descriptor)
    }
}
