import Testing
import Transport

@Suite(.timeLimit(.minutes(1))) struct LinkClockTests {
    @Test func unpacedClockJumpsToDeadlinesWithoutWaiting() async throws {
        let clock = LinkClock.unpaced()
        let start = ContinuousClock.now
        try await clock.sleep(until: MonotonicInstant(sinceOrigin: .seconds(3600)))
        #expect(clock.now == MonotonicInstant(sinceOrigin: .seconds(3600)))
        try await clock.sleep(until: MonotonicInstant(sinceOrigin: .seconds(1)))
        #expect(clock.now == MonotonicInstant(sinceOrigin: .seconds(3600)))  // never goes back
        #expect(ContinuousClock.now - start < .seconds(60))  // an hour of model time, not of real time
    }

    /// Checked against the real clock without assuming how fast this machine is: real instants
    /// read around making and around reading the clock bound its model time exactly.
    @Test func scaledClockRunsModelTimeFaster() async throws {
        let scale = 0.01
        let beforeMaking = ContinuousClock.now
        let clock = try #require(LinkClock(timeScale: scale))
        let afterMaking = ContinuousClock.now
        try await clock.sleep(until: MonotonicInstant(sinceOrigin: .seconds(10)))
        let beforeReading = ContinuousClock.now
        let model = clock.now.sinceOrigin
        let afterReading = ContinuousClock.now
        // 10 s of model time is 100 ms of real time, and the sleep does not end sooner.
        #expect(model >= .seconds(10))
        #expect(beforeReading - beforeMaking >= .milliseconds(100))
        // Model time is the real time since the clock was made divided by the scale (to rounding).
        let rounding = Duration.microseconds(1)
        #expect(model >= (beforeReading - afterMaking) / scale - rounding)
        #expect(model <= (afterReading - beforeMaking) / scale + rounding)
    }

    @Test func manualClockMovesOnlyWhenAdvanced() async throws {
        let clock = LinkClock.manual()
        #expect(clock.now == MonotonicInstant(sinceOrigin: .zero))
        let early = Task {
            try await clock.sleep(until: MonotonicInstant(sinceOrigin: .seconds(1)))
            return clock.now
        }
        let late = Task {
            try await clock.sleep(until: MonotonicInstant(sinceOrigin: .seconds(2)))
            return clock.now
        }
        // Each step wakes only the sleeps it reached: each returns while the clock still reads its step.
        clock.advance(by: .seconds(1))
        #expect(try await early.value == MonotonicInstant(sinceOrigin: .seconds(1)))
        clock.advance(by: .seconds(1))
        #expect(try await late.value == MonotonicInstant(sinceOrigin: .seconds(2)))
        // A deadline already reached returns at once; time never goes back.
        try await clock.sleep(until: MonotonicInstant(sinceOrigin: .milliseconds(500)))
        clock.advance(by: .seconds(-5))
        #expect(clock.now == MonotonicInstant(sinceOrigin: .seconds(2)))
    }

    @Test func cancelledSleepOnAManualClockEnds() async throws {
        let clock = LinkClock.manual()
        let sleeper = Task { try await clock.sleep(until: MonotonicInstant(sinceOrigin: .seconds(3600))) }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }

    @Test func rejectsNegativeOrNonFiniteScale() {
        #expect(LinkClock(timeScale: -1) == nil)
        #expect(LinkClock(timeScale: .nan) == nil)
        #expect(LinkClock(timeScale: .infinity) == nil)
        #expect(LinkClock(timeScale: 0)?.timeScale == 0)
    }
}
