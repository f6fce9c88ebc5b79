/// A six-digit LE passkey (000000–999999). Its `description` never shows the digits, so a passkey
/// interpolated into a log line or an error by mistake leaks nothing; `digits` is for the one
/// place that must show or send it (the agent's reply, a terminal prompt).
public struct Passkey: Hashable, Sendable, CustomStringConvertible {
    public let value: UInt32

    /// nil outside 0…999999.
    public init?(_ value: UInt32) {
        guard value <= 999_999 else { return nil }
        self.value = value
    }

    /// "123456" or "004711": exactly six decimal digits (what devices display), else nil.
    public init?(text: String) {
        guard text.count == 6, text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = UInt32(text) else { return nil }
        self.init(value)
    }

    /// The six digits, zero-padded.
    public var digits: String {
        let text = String(value)
        return String(repeating: "0", count: 6 - text.count) + text
    }

    public var description: String { "******" }
}
