/// Decimal text for a measured quantity (seconds, kB/s) with a fixed number of fraction digits,
/// written out by hand so output never depends on the locale or on how `Double.description` picks
/// between `0.1` and `1e-05`. Shared by the terminal lines and the JSON encoder, so both round alike.
enum FixedPoint {
    /// `value` rounded half away from zero to `fractionDigits` places (0…9). Trailing zeros are
    /// kept, so columns of numbers line up: `format(7.5, fractionDigits: 2)` is `7.50`. Nil when the
    /// value is not finite or too large to round exactly (beyond ±9·10¹⁵ after scaling).
    static func format(_ value: Double, fractionDigits: Int) -> String? {
        let digits = min(max(fractionDigits, 0), 9)
        var scale = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = (value * Double(scale)).rounded(.toNearestOrAwayFromZero)
        // Beyond 2^53 the double has no exact integer value left to print digit by digit.
        guard scaled.isFinite, abs(scaled) < 9e15, let integer = Int(exactly: scaled) else { return nil }
        let magnitude = integer.magnitude
        var text = integer < 0 ? "-" : ""
        text += String(magnitude / UInt(scale))
        if digits > 0 {
            let fraction = String(magnitude % UInt(scale))
            text += "." + String(repeating: "0", count: digits - fraction.count) + fraction
        }
        return text
    }

    /// As `format`, without trailing fraction zeros (`7.5`, `3`): the compact form JSON uses.
    static func compact(_ value: Double, maximumFractionDigits: Int) -> String? {
        guard var text = format(value, fractionDigits: maximumFractionDigits) else { return nil }
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        if text == "-0" { text = "0" }
        return text
    }
}
