import Testing
import Transport
@testable import DFUCore

/// The one timer policy: a timer due no later is kept, an earlier deadline replaces it.
@Suite(.timeLimit(.minutes(1))) struct CoreTimerTests {
    let model = LinkClock.manual()
    let fires: AsyncStream<String>
    private let fired: AsyncStream<String>.Continuation

    init() { (fires, fired) = AsyncStream.makeStream(of: String.self) }

    /// A `fire` that reports which arming woke.
    func report(_ name: String) -> @Sendable () async -> Void {
        let fired = fired
        return { fired.yield(name) }
    }

    @Test func anArmedTimerDueEarlierIsKept() async {
        var timer = CoreTimer(clock: InstantClock(model))
        var woken = fires.makeAsyncIterator()
        timer.arm(MonotonicInstant(sinceOrigin: .seconds(1)), fire: report("1 s"))
        timer.arm(MonotonicInstant(sinceOrigin: .seconds(2)), fire: report("2 s"))
        model.advance(by: .seconds(1))
        // The early wake: its owner feeds the core (a no-op) and re-arms from the core's deadline.
        #expect(await woken.next() == "1 s")
        timer.fired()
        timer.arm(MonotonicInstant(sinceOrigin: .seconds(2)), fire: report("2 s again"))
        model.advance(by: .seconds(1))
        #expect(await woken.next() == "2 s again")
    }

    @Test func anEarlierDeadlineReplacesTheArmedTimer() async {
        var timer = CoreTimer(clock: InstantClock(model))
        var woken = fires.makeAsyncIterator()
        timer.arm(MonotonicInstant(sinceOrigin: .seconds(2)), fire: report("2 s"))
        timer.arm(MonotonicInstant(sinceOrigin: .seconds(1)), fire: report("1 s"))
        model.advance(by: .seconds(1))
        #expect(await woken.next() == "1 s")
        timer.fired()
        timer.arm(MonotonicInstant(sinceOrigin: .seconds(3)), fire: report("3 s"))
        model.advance(by: .seconds(1)) // the replaced 2 s timer does not wake
        model.advance(by: .seconds(1))
        #expect(await woken.next() == "3 s")
    }

    @Test func armingNoDeadlineCancels() async {
        var timer = CoreTimer(clock: InstantClock(model))
        var woken = fires.makeAsyncIterator()
        timer.arm(MonotonicInstant(sinceOrigin: .seconds(1)), fire: report("1 s"))
        timer.arm(nil, fire: report("none"))
        model.advance(by: .seconds(1))
        timer.arm(MonotonicInstant(sinceOrigin: .seconds(2)), fire: report("2 s"))
        model.advance(by: .seconds(1))
        #expect(await woken.next() == "2 s")
    }
}
