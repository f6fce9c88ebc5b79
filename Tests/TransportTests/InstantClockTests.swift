import Testing
import Transport

@Suite(.timeLimit(.minutes(1))) struct InstantClockTests {
    @Test func countsFromWhenItWasMade() async throws {
        let model = LinkClock.manual()
        model.advance(by: .seconds(10))
        let clock = InstantClock(model)
        #expect(clock.now == .zero)
        model.advance(by: .seconds(3))
        #expect(clock.now == MonotonicInstant(sinceOrigin: .seconds(3)))
    }

    @Test func sleepsUntilTheWrappedClockReachesTheDeadline() async throws {
        let model = LinkClock.manual()
        model.advance(by: .seconds(5))
        let clock = InstantClock(model)
        let sleeper = Task {
            try await clock.sleep(until: MonotonicInstant(sinceOrigin: .seconds(2)))
            return model.now
        }
        model.advance(by: .seconds(1))
        model.advance(by: .seconds(1))
        // The deadline is 2 s after the adapter's origin, which is the wrapped clock's 5 s.
        #expect(try await sleeper.value == MonotonicInstant(sinceOrigin: .seconds(7)))
    }

    @Test func copiesShareTheOrigin() {
        let model = LinkClock.manual()
        let clock = InstantClock(model)
        let copy = clock
        model.advance(by: .milliseconds(250))
        #expect(copy.now == clock.now)
        #expect(copy.now == MonotonicInstant(sinceOrigin: .milliseconds(250)))
    }

    @Test func cancelledSleepThrows() async {
        let clock = InstantClock(LinkClock.manual())
        let sleeper = Task { try await clock.sleep(until: MonotonicInstant(sinceOrigin: .seconds(3600))) }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }
}
