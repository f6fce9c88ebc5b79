import Transport

/// bluetoothd's ATT write queue for one connection: Write Commands leave in the order they were
/// queued, each handed to the link (which suspends while its buffers are full). WriteValue(type:
/// command) queues and returns at once, as bluetoothd replies once the PDU is queued; an
/// AcquireWrite datagram waits until its command was taken, so the socket fills behind a busy
/// device. A command the link refuses (too long, link gone) is lost silently, as on air.
final class StandInCommandQueue: Sendable {
    private struct Command: Sendable {
        var bytes: [UInt8]
        var characteristic: CharacteristicID
        var taken: CheckedContinuation<Void, Never>?
    }

    private let continuation: AsyncStream<Command>.Continuation

    init(link: any Link) {
        let (commands, continuation) = AsyncStream<Command>.makeStream()
        self.continuation = continuation
        Task {
            for await command in commands {
                try? await link.writeWithoutResponse(command.bytes, to: command.characteristic)
                command.taken?.resume()
            }
        }
    }

    /// Queues a command and returns at once.
    func enqueue(_ bytes: [UInt8], to characteristic: CharacteristicID) {
        continuation.yield(Command(bytes: bytes, characteristic: characteristic, taken: nil))
    }

    /// Queues a command and returns once the link took it (or refused it).
    func send(_ bytes: [UInt8], to characteristic: CharacteristicID) async {
        await withCheckedContinuation { taken in
            let command = Command(bytes: bytes, characteristic: characteristic, taken: taken)
            if case .terminated = continuation.yield(command) { taken.resume() }
        }
    }

    /// Ends the queue; commands already queued are still offered to the (dead) link.
    func finish() {
        continuation.finish()
    }
}
