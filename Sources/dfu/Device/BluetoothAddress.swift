/// A Bluetooth device address as users write it, `AA:BB:CC:DD:EE:FF`: six hex pairs, any case on
/// input, upper case (BlueZ's form, as `bluetoothctl` prints it) after parsing.
struct BluetoothAddress: Sendable, Hashable, CustomStringConvertible {
    /// `AA:BB:CC:DD:EE:FF`, upper case.
    let description: String

    /// Why a text is not an address; `reason` names the part that is wrong.
    struct Invalid: Error, Sendable, Equatable {
        var reason: String
    }

    init(parsing text: String) throws(Invalid) {
        let example = "like AA:BB:CC:DD:EE:FF"
        let compact = text.filter { $0 != ":" && $0 != "-" }
        if !text.contains(":"), compact.count == 12, compact.allSatisfy(\.isASCIIHexDigit) {
            // `AA-BB-…` (Windows) or `AABBCCDDEEFF` (some vendor tools): say how to write it here.
            throw Invalid(reason: "write the address with colons, \(Self.withColons(compact))")
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6 else {
            throw Invalid(reason: "an address has 6 hex pairs separated by ':', this has \(parts.count) parts (\(example))")
        }
        for part in parts where part.count != 2 || !part.allSatisfy(\.isASCIIHexDigit) {
            throw Invalid(reason: "'\(part)' is not two hex digits (\(example))")
        }
        description = parts.joined(separator: ":").uppercased()
    }

    /// Whether `text` is an attempt at an address, so a mistake in it is reported as a bad address
    /// rather than as an unknown kind of device: at least one ':' and only short parts (`AA:BB:CC`,
    /// `AA:BB:CC:DD:EE:GG`), or twelve hex digits with dashes or nothing between them.
    static func looksLikeAddress(_ text: String) -> Bool {
        let compact = text.filter { $0 != ":" && $0 != "-" }
        if compact.count == 12, compact.allSatisfy(\.isASCIIHexDigit) { return true }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count >= 2 && parts.allSatisfy { $0.count <= 2 }
    }

    /// `…:EE:FF`: enough to tell one's own devices apart in a log, not enough to track one. The
    /// default wherever an address is shown (ARCHITECTURE.md, "Logs leak nothing by default").
    var shortened: String {
        "…" + description.suffix(6)
    }

    private static func withColons(_ hex: String) -> String {
        var pairs: [String] = []
        var rest = Substring(hex.uppercased())
        while !rest.isEmpty {
            pairs.append(String(rest.prefix(2)))
            rest = rest.dropFirst(2)
        }
        return pairs.joined(separator: ":")
    }
}

private extension Character {
    /// `isHexDigit` also accepts the fullwidth forms (`ＡＢ`), which BlueZ would not.
    var isASCIIHexDigit: Bool { isASCII && isHexDigit }
}
