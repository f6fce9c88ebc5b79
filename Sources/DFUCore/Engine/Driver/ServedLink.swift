import Transport

/// One link being served: a task that reads its events and a task that carries out the queued
/// writes in order, both ending with the link. `Write` is what the protocol queues (SMP: the bytes
/// of one Write Command; Nordic: a Control Point write or a batch of packets).
struct ServedLink<Write: Sendable>: Sendable {
    let link: any Link
    private let writes: AsyncStream<Write>.Continuation
    private let listener: Task<Void, Never>
    private let writer: Task<Void, Never>

    var generation: LinkGeneration { link.parameters.generation }

    /// Starts both tasks. `events` gets every event of the link, in order (its owner drops the
    /// stale ones). `write` carries out one queued write and waits for the link to take it (the
    /// flow control); an error it throws ends the queue, and the link with it (`abandon`).
    init(_ link: any Link, events: @escaping @Sendable (LinkEvent) async -> Void,
         write: @escaping @Sendable (Write, any Link) async throws(LinkError) -> Void) {
        let (queue, writes) = AsyncStream.makeStream(of: Write.self)
        self.link = link
        self.writes = writes
        listener = Task {
            for await event in link.events { await events(event) }
        }
        writer = Task {
            for await item in queue {
                do throws(LinkError) {
                    try await write(item, link)
                } catch {
                    await Self.abandon(link, after: error)
                    return
                }
            }
        }
    }

    /// Queues a write behind the ones not yet carried out.
    func send(_ write: Write) { writes.yield(write) }

    func stop() {
        writes.finish()
        listener.cancel()
        writer.cancel()
    }

    /// A write that failed for another reason than the link going down leaves the link in an
    /// unknown state: close it, so the ordinary loss path (and the engine's reconnect) runs.
    private static func abandon(_ link: any Link, after error: LinkError) async {
        switch error {
        case .disconnected, .cancelled: return
        default: await link.disconnect()
        }
    }
}
