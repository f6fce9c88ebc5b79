import Testing
@testable import Transport

/// The one Duration-to-number conversion: seconds as a Double, whole units with the rest dropped.
@Suite struct DurationUnitsTests {
    @Test func wholeUnitsDropTheRest() {
        let duration = Duration.seconds(2) + .nanoseconds(3_456_789)
        #expect(duration.wholeMilliseconds == 2_003)
        #expect(duration.wholeMicroseconds == 2_003_456)
        #expect(duration.wholeNanoseconds == 2_003_456_789)
        #expect(Duration.microseconds(999).wholeMilliseconds == 0)
    }

    @Test func secondsKeepTheFraction() {
        #expect(Duration.milliseconds(1_500).seconds == 1.5)
    }
}
