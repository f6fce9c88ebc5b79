#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
@testable import Transport

/// The pump hands on its events and answers outside its lock. Under it, a send's answer resumed
/// into a task the runtime is cancelling waited for that task's lock, while the cancellation's
/// handler (`send`'s) waited for the pump's: a deadlock that froze `dfu-faults` over BlueZ (a link
/// dropped with a write in flight) with both of the pool's threads stuck.
@Suite(.timeLimit(.minutes(1))) struct FDPumpHandOnTests {
    /// `deliver` may use the pump it is called by: it runs with the pump's lock let go (under it,
    /// the first call into the pump would wait for itself for ever).
    @Test func anEventHandlerMayCallIntoItsPump() async throws {
        let (ours, theirs) = try SeqPacketPair.make()
        defer { close(theirs) }
        let holder = Mutex<FDPump?>(nil)
        let (seen, sink) = AsyncStream.makeStream(of: String.self)
        let pump = try FDPump.start(owning: ours, policy: FDPumpTests.policy) { event in
            guard let pump = holder.withLock({ $0 }) else { return }
            switch event {
            case .received:
                // What a stream's consumer might do on the spot: look at the pump, end it.
                sink.yield("received, end \(String(describing: pump.end)), unread \(pump.unreadByPeer != nil)")
                pump.close()
            case .ended(let end):
                sink.yield("ended \(end)")
                sink.finish()
            }
        }
        holder.withLock { $0 = pump }
        #expect(SeqPacketPair.send(theirs, [1, 2, 3]))
        var lines: [String] = []
        for await line in seen { lines.append(line) }
        #expect(lines == ["received, end nil, unread true", "ended closed"])
        holder.withLock { $0 = nil }
    }

    /// Sends queued on a full socket, each cancelled as the peer starts to read (so the pump answers
    /// some as they are cancelled): every send ends sent or cancelled, and the pump still works.
    @Test func sendsCancelledAsThePumpAnswersThemAllEnd() async throws {
        for round in 0 ..< 60 {
            let (ours, theirs) = try SeqPacketPair.make(sendBuffer: 4096)
            defer { close(theirs) }
            let fillers = SeqPacketPair.fill(ours) { [UInt8(truncatingIfNeeded: $0)] + [UInt8](repeating: 0, count: 500) }
            let (pump, _) = try FDPumpProbe.start(owning: ours, policy: FDPumpTests.policy)
            let senders = (0 ..< 8).map { index in Task { await pump.send([0xA0, UInt8(index)]) } }
            // Let them queue, then read and cancel at once.
            try await Task.sleep(for: .milliseconds(1))
            let reading = Task { await SeqPacketPair.readDatagrams(theirs, count: fillers.count) }
            for (index, sender) in senders.enumerated() where (index + round) % 2 == 0 { sender.cancel() }
            for sender in senders {
                switch await sender.value {
                case .success, .failure(.cancelled): break
                case .failure(let failure): Issue.record("round \(round): \(failure)")
                }
            }
            #expect(await reading.value.count == fillers.count)
            let after = await pump.send([0xEE])
            if case .failure(let failure) = after { Issue.record("round \(round): the pump stopped: \(failure)") }
            await pump.closeAndWait()
        }
    }
}
