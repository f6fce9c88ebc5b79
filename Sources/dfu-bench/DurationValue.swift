import Transport

/// Durations as the report prints them.
enum DurationValue {
    /// `7.5`, `30`: milliseconds without a needless `.0`.
    static func millisecondsText(_ duration: Duration) -> String {
        // Whole microseconds, so 7.5 ms prints as 7.5 and not as a binary fraction's digits.
        let micros = duration.wholeMicroseconds
        let whole = micros / 1000, fraction = micros % 1000
        guard fraction != 0 else { return String(whole) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }
}
