#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import Transport

/// The fd pump on a descriptor that is no socket: a pipe, written and read with `write` and `read`
/// as a tty would be. A pipe takes only part of a write larger than PIPE_BUF when it is nearly
/// full, so this is also where a send that leaves in parts is seen.
@Suite(.timeLimit(.minutes(1))) struct FDPumpPipeTests {
    /// Larger than PIPE_BUF (4096), so the kernel may take a part of one; no multiple of a page.
    static let messageSize = 10_000

    /// A non-blocking, close-on-exec pipe: (read end, write end).
    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw SystemCallError(call: "pipe", code: errno) }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        return (ends[0], ends[1])
    }

    /// Bytes waiting in the pipe (FIONREAD). Traps rather than spin if the kernel cannot say.
    private static func queued(_ readEnd: Int32) -> Int {
        var count: Int32 = 0
        precondition(ioctl(readEnd, UInt(FIONREAD), &count) == 0, "FIONREAD on a pipe")
        return Int(count)
    }

    @Test func aPipeCarriesEverySendWholeAndInCallOrderThoughTheKernelTakesItInParts() async throws {
        let (readEnd, writeEnd) = try Self.makePipe()
        let writer = try FDPump.start(owning: writeEnd, policy: FDPumpPolicy(receiveBufferSize: 1, hangUpCodes: [EPIPE])) { _ in }
        let messages = (0..<30).map { [UInt8](repeating: UInt8($0), count: Self.messageSize) }
        // Six fit the empty pipe whole.
        for message in messages.prefix(6) { #expect(try await writer.send(message).get() == ()) }
        // Two senders at once: the first part of the seventh fills the pipe, the rest waits.
        let lanes = [Array(messages[6..<18]), Array(messages[18..<30])]
        let senders = lanes.map { lane in
            Task {
                var failures = 0
                for message in lane where (try? await writer.send(message).get()) == nil { failures += 1 }
                return failures
            }
        }
        // Waits until the pipe holds more than the six (a state with no event to await, so it is
        // looked at); what it holds then is no whole number of messages: the kernel took a part.
        while Self.queued(readEnd) <= 6 * Self.messageSize { await Task.yield() }
        #expect(Self.queued(readEnd) % Self.messageSize != 0)

        // Only now a reader: a second pump, reading with `read` until the writer's end closes.
        let (reader, probe) = try FDPumpProbe.start(owning: readEnd, policy: FDPumpPolicy(receiveBufferSize: 4096,
                                                                                          emptyReadIsEndOfStream: true))
        for sender in senders { #expect(await sender.value == 0) }
        await writer.closeAndWait()
        let seen = await probe.untilEnded()
        reader.close()

        #expect(seen.last == .ended(.hangUp))
        let bytes = seen.flatMap { event -> [UInt8] in
            if case .message(let chunk) = event { return chunk }
            return []
        }
        #expect(bytes.count == messages.count * Self.messageSize)
        let arrived = stride(from: 0, to: bytes.count, by: Self.messageSize).map {
            Array(bytes[$0..<min($0 + Self.messageSize, bytes.count)])
        }
        // Whole: no message is mixed with another. In call order: within each sender, and the six first.
        #expect(arrived.allSatisfy { $0.count == Self.messageSize && Set($0).count == 1 })
        let order = arrived.compactMap(\.first)
        #expect(Array(order.prefix(6)) == Array(0..<6))
        for lane in lanes {
            let values = Set(lane.compactMap(\.first))
            #expect(order.filter(values.contains) == lane.compactMap(\.first))
        }
        #expect(Set(order) == Set(0..<30))
    }
}
