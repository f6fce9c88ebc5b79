#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import Transport

/// The fd pump on its own, over a SOCK_SEQPACKET socketpair whose far end the test plays. Every
/// wait is for an event (a message, EOF, the pump letting go); the suite's time limit only turns a
/// hang into a failure.
@Suite(.timeLimit(.minutes(1))) struct FDPumpTests {
    typealias Seen = FDPumpProbe.Seen
    /// As BlueZ's acquired fds: a peer that went away is a hang-up.
    static let policy = FDPumpPolicy(receiveBufferSize: 2048, hangUpCodes: [EPIPE, ECONNRESET, ENOTCONN],
                                     emptyReadIsEndOfStream: true)

    private static func failure(of result: Result<Void, FDPumpSendFailure>) -> FDPumpSendFailure? {
        if case .failure(let failure) = result { return failure }
        return nil
    }

    /// Runs `body` with a pump on a fresh pair (and the far end), then closes the pump, lets go of it
    /// and waits until its thread did too: what the probe saw then is all it will ever see.
    private static func withPump(_ body: (FDPump, FDPumpProbe, _ theirs: Int32) async throws -> Void) async throws
        -> FDPumpProbe {
        let (ours, theirs) = try SeqPacketPair.make()
        defer { close(theirs) }
        var pump: FDPump?
        let probe: FDPumpProbe
        (pump, probe) = try FDPumpProbe.start(owning: ours, policy: policy)
        if let pump { try await body(pump, probe, theirs) }
        pump?.close()
        pump = nil
        await probe.waitUntilReleased()
        return probe
    }

    @Test func deliversEveryMessageWholeAndInArrivalOrder() async throws {
        // Index first, then a size from 1 to the whole receive buffer.
        let values = (0..<60).map { index in [UInt8(index)] + [UInt8](repeating: 0x5A, count: (index * 37) % 2048) }
        let probe = try await Self.withPump { pump, probe, theirs in
            for value in values { #expect(SeqPacketPair.send(theirs, value)) }
            #expect(await probe.next(values.count) == values.map(Seen.message))
            #expect(pump.end == nil)
        }
        #expect(probe.seen == values.map(Seen.message) + [.ended(.closed)])
    }

    @Test func aSendToAFullSocketWaitsUntilThePeerReadsThenLeavesInCallOrder() async throws {
        let (ours, theirs) = try SeqPacketPair.make(sendBuffer: 4096)
        defer { close(theirs) }
        // Filled before the pump starts: the kernel has refused a message, so no send can leave
        // until the peer reads.
        let fillers = SeqPacketPair.fill(ours) { [0xF0, UInt8(truncatingIfNeeded: $0)] + [UInt8](repeating: 0, count: 500) }
        #expect(!fillers.isEmpty)
        let (pump, probe) = try FDPumpProbe.start(owning: ours, policy: Self.policy)
        defer { pump.close() }
        // Nothing can be sent while the peer reads nothing, so a cancelled send is refused, never sent.
        let held = Task { await pump.send([0xCC]) }
        held.cancel()
        #expect(Self.failure(of: await held.value) == .cancelled)

        let markers = (0..<20).map { [0xA0, UInt8($0)] }
        let sending = Task {
            var failures: [FDPumpSendFailure] = []
            for marker in markers {
                if let failure = Self.failure(of: await pump.send(marker)) { failures.append(failure) }
            }
            return failures
        }
        // The peer reads now: the queued sends resume and arrive after the fillers, in call order.
        let received = await SeqPacketPair.readDatagrams(theirs, count: fillers.count + markers.count)
        #expect(received == fillers + markers)
        #expect(await sending.value.isEmpty)
        #expect(probe.seen.isEmpty)
    }

    @Test func aPeerThatClosesIsReportedOnceAfterItsLastMessages() async throws {
        let values: [[UInt8]] = [[1], [2, 3], [UInt8](repeating: 7, count: 2048)]
        let expected = values.map(Seen.message) + [.ended(.hangUp)]
        let probe = try await Self.withPump { pump, probe, theirs in
            for value in values { #expect(SeqPacketPair.send(theirs, value)) }
            // How bluetoothd drops the link (`io_shutdown`); closing the far end looks the same here.
            #expect(shutdown(theirs, Int32(SHUT_RDWR)) == 0)
            #expect(await probe.untilEnded() == expected)
            #expect(pump.end == .hangUp)
            #expect(Self.failure(of: await pump.send([9])) == .ended(.hangUp))
            pump.close()  // after the end: changes nothing, reports nothing
            #expect(pump.end == .hangUp)
        }
        #expect(probe.seen == expected)
    }

    @Test func closingWakesTheIdleThreadWhichClosesTheDescriptorAndLetsGo() async throws {
        let probe = try await Self.withPump { pump, probe, theirs in
            // A message read and nothing more to read: the thread is back in poll, and only the
            // wake-up channel gets it out.
            #expect(SeqPacketPair.send(theirs, [1]))
            #expect(await probe.next(1) == [.message([1])])
            #expect(SeqPacketPair.receiveNow(theirs) == -1)
            await pump.closeAndWait()
            // The pump's descriptor was the only copy of our end: the peer reads EOF, so it did not leak.
            #expect(SeqPacketPair.receiveNow(theirs) == 0)
        }
        // withPump returned: the thread exited and let go of the pump.
        #expect(probe.seen == [.message([1]), .ended(.closed)])
    }

    @Test func nothingIsDeliveredOrSentAfterClose() async throws {
        let values = (0..<40).map { [UInt8($0)] }
        let probe = try await Self.withPump { pump, _, theirs in
            for value in values.prefix(20) { #expect(SeqPacketPair.send(theirs, value)) }
            pump.close()
            pump.close()
            // Sent after close: queued in a socket the thread no longer reads, or refused once it closed it.
            for value in values.suffix(20) { SeqPacketPair.send(theirs, value) }
            #expect(Self.failure(of: await pump.send([1])) == .ended(.closed))
        }
        let seen = probe.seen
        #expect(seen.last == .ended(.closed))
        #expect(seen.filter { if case .ended = $0 { true } else { false } }.count == 1)
        // What came before the end came in order, and none of it was sent after close.
        let messages = Array(seen.dropLast())
        #expect(messages == values.prefix(messages.count).map(Seen.message))
        #expect(messages.count <= 20)
    }
}
