// The one Duration-to-number conversion: every target above Transport imports it, so rates, JSON,
// reports, `sim:` texts and timers all compute seconds and whole units the same way.
extension Duration {
    /// The duration in seconds as a floating-point number, for rates and log lines.
    public var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) * 1e-18
    }

    /// Whole milliseconds, the rest dropped (toward zero).
    package var wholeMilliseconds: Int64 { whole(attosecondsPerUnit: 1_000_000_000_000_000) }

    /// Whole microseconds, the rest dropped (toward zero).
    package var wholeMicroseconds: Int64 { whole(attosecondsPerUnit: 1_000_000_000_000) }

    /// Whole nanoseconds, the rest dropped (toward zero).
    package var wholeNanoseconds: Int64 { whole(attosecondsPerUnit: 1_000_000_000) }

    private func whole(attosecondsPerUnit unit: Int64) -> Int64 {
        let (seconds, attoseconds) = components
        return seconds * (1_000_000_000_000_000_000 / unit) + attoseconds / unit
    }
}
