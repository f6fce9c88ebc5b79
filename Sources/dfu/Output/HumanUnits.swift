import Transport

/// How quantities are written for people: decimal kilobytes (1 kB = 1000 bytes, the unit BLE
/// throughput is quoted in, so sizes and rates compare directly), seconds with two decimals,
/// an ETA as minutes:seconds. Every number goes through `FixedPoint`, never the locale.
enum HumanUnits {
    /// `512 B`, `49.2 kB`, `1.05 MB`.
    static func bytes(_ count: Int) -> String {
        if count.magnitude < 1000 { return "\(count) B" }
        let unit = Unit(forMagnitude: count)
        return number(Double(count) / unit.divisor, unit.fractionDigits) + " " + unit.symbol
    }

    /// Two counts in the unit of the larger, for progress: `20.1/49.2 kB`.
    static func bytes(_ count: Int, of total: Int) -> String {
        let unit = Unit(forMagnitude: max(count, total))
        return number(Double(count) / unit.divisor, unit.fractionDigits) + "/"
            + number(Double(total) / unit.divisor, unit.fractionDigits) + " " + unit.symbol
    }

    /// Bytes per second as `15.3 kB/s`: always kB/s, the range every BLE link falls in.
    static func rate(_ bytesPerSecond: Double) -> String {
        number(bytesPerSecond / 1000, 1) + " kB/s"
    }

    /// `0.84 s`, `75.20 s`.
    static func duration(_ duration: Duration) -> String {
        number(duration.seconds, 2) + " s"
    }

    /// A connection interval in milliseconds without needless zeros: `7.5 ms`, `30 ms`.
    static func milliseconds(_ duration: Duration) -> String {
        (FixedPoint.compact(duration.seconds * 1000, maximumFractionDigits: 2) ?? "?") + " ms"
    }

    /// Time left as `m:ss` (`0:03`, `12:40`); `--:--` when it cannot be estimated yet.
    static func clock(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0, seconds < 360_000 else { return "--:--" }
        let whole = Int(seconds.rounded(.up))
        let remainder = whole % 60
        return "\(whole / 60):" + (remainder < 10 ? "0" : "") + String(remainder)
    }

    /// Whole percent of `part` in `whole`, rounded down so 100 % means done; a count past the total
    /// (a device reporting more than was sent) shows as 100 %, never more.
    static func percent(_ part: Int, of whole: Int) -> Int {
        guard whole > 0 else { return part > 0 ? 100 : 0 }
        let clamped = min(max(part, 0), whole)
        let (scaled, overflow) = clamped.multipliedReportingOverflow(by: 100)
        if overflow { return Int((Double(clamped) / Double(whole) * 100).rounded(.down)) }
        return scaled / whole
    }

    private static func number(_ value: Double, _ fractionDigits: Int) -> String {
        FixedPoint.format(value, fractionDigits: fractionDigits) ?? "?"
    }

    private struct Unit {
        var divisor: Double
        var symbol: String
        var fractionDigits: Int

        init(forMagnitude count: Int) {
            if count.magnitude < 1_000_000 {
                self = Unit(divisor: 1000, symbol: "kB", fractionDigits: 1)
            } else {
                self = Unit(divisor: 1_000_000, symbol: "MB", fractionDigits: 2)
            }
        }

        private init(divisor: Double, symbol: String, fractionDigits: Int) {
            self.divisor = divisor
            self.symbol = symbol
            self.fractionDigits = fractionDigits
        }
    }
}
