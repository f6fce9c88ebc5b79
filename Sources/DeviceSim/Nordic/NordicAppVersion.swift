/// An nRF5 application's `app_version` (a uint32 in the bootloader settings and the init packet)
/// and the text its Device Information firmware revision shows. The text follows nrfutil's
/// `--application-version-string`: "M.m.r" is M·10000 + m·100 + r, so 10000 reads "1.0.0" and the
/// samples' version 3 reads "0.0.3".
public enum NordicAppVersion {
    public static func text(_ version: UInt32) -> String {
        "\(version / 10_000).\(version / 100 % 100).\(version % 100)"
    }

    /// `N` (the integer as `--application-version` takes it) or `M.m.r` with m and r below 100.
    public static func parse(_ text: String) -> UInt32? {
        if let plain = UInt32(text) { return plain }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let major = UInt32(parts[0]), let minor = UInt32(parts[1]), let revision = UInt32(parts[2]),
              minor < 100, revision < 100, major <= (UInt32.max - 9_999) / 10_000 else { return nil }
        return major * 10_000 + minor * 100 + revision
    }
}
