import Harness
import Synchronization
import Testing

/// The hang guard the fault campaign puts around each update and the tests around each wait: a hung
/// operation costs the limit and no more, even one that ignores cancellation.
@Suite struct HangGuardTests {
    /// An operation that waits until released and ignores cancellation.
    final class Hang: Sendable {
        private let waiters = Mutex<[CheckedContinuation<Void, Never>]>([])

        func wait() async { await withCheckedContinuation { continuation in waiters.withLock { $0.append(continuation) } } }

        func release() {
            let waiting = waiters.withLock { waiters in
                defer { waiters = [] }
                return waiters
            }
            for waiter in waiting { waiter.resume() }
        }
    }

    @Test func anOperationThatEndsInTimeGivesItsResult() async throws {
        #expect(await HangGuard.run(limit: .seconds(60)) { 42 } == 42)
        #expect(try await HangGuard.within { "done" } == "done")
    }

    @Test func aHungOperationIsLeftBehindAtTheLimit() async throws {
        let hang = Hang()
        let result = await HangGuard.run(limit: .milliseconds(50)) { await hang.wait(); return 1 }
        #expect(result == nil)
        await #expect(throws: HangGuard.TimedOut.self) {
            try await HangGuard.within("the hung wait", .milliseconds(50)) { await hang.wait() }
        }
        hang.release()
    }

    @Test func anErrorOfTheOperationIsPassedOn() async throws {
        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await HangGuard.within { () async throws -> Int in throw Refused() } }
    }

    @Test func theTimeoutNamesWhatWasAwaited() async {
        let hang = Hang()
        do {
            try await HangGuard.within("the write", .milliseconds(10)) { await hang.wait() }
            Issue.record("the hung wait ended")
        } catch {
            #expect("\(error)" == "gave up waiting for the write (hang?)")
        }
        hang.release()
    }
}
