import DFUCore

/// The value syntaxes `SimOptions` accepts, each returning nil for anything else so the caller can
/// name the key in its error.
extension SimOptions {
    /// `M.m.r` or `M.m.r+build`, each part within the MCUboot header's field width.
    static func version(_ text: String) -> ImageVersion? {
        ImageVersion(parsing: text)
    }

    /// `M.m.r+build`, the `version=` syntax.
    static func text(_ version: ImageVersion) -> String {
        let base = "\(version.major).\(version.minor).\(version.revision)"
        return version.build == 0 ? base : base + "+\(version.build)"
    }

    /// Milliseconds (`7.5`, `30`, `30ms`) on the 1.25 ms grid from 7.5 ms to 4 s.
    static func interval(_ text: String) -> Duration? {
        let digits = text.hasSuffix("ms") ? text.dropLast(2) : text[...]
        guard let ms = Double(digits), ms.isFinite else { return nil }
        // Work in microseconds, where the grid (1250 µs) is exact.
        let micros = (ms * 1000).rounded()
        guard abs(micros - ms * 1000) < 1e-6, (7_500 ... 4_000_000).contains(micros),
              micros.truncatingRemainder(dividingBy: 1_250) == 0 else { return nil }
        return .microseconds(Int64(micros))
    }

    /// Decimal or `0x` hex.
    static func unsigned(_ text: Substring) -> UInt64? {
        if text.hasPrefix("0x") || text.hasPrefix("0X") { return UInt64(text.dropFirst(2), radix: 16) }
        return UInt64(text)
    }

    /// A byte count: decimal, `0x` hex, or with a `K` (KiB) or `M` (MiB) suffix.
    static func size(_ text: Substring) -> Int? {
        var digits = text
        var multiplier: UInt64 = 1
        if let last = text.last, "kK".contains(last) {
            multiplier = 1024
            digits = text.dropLast()
        } else if let last = text.last, "mM".contains(last), !text.hasPrefix("0x") {
            multiplier = 1024 * 1024
            digits = text.dropLast()
        }
        guard let n = unsigned(digits) else { return nil }
        let (product, overflow) = n.multipliedReportingOverflow(by: multiplier)
        guard !overflow, product <= UInt64(Int.max) else { return nil }
        return Int(product)
    }
}
