import Transport

/// The checks an entry name must pass before dfu uses it: nothing that could name a file outside the
/// archive's own directory if a tool extracted it, and nothing two tools could read differently.
enum ZipEntryName {
    /// `nil` if `raw` is safe, else why not. `raw` is the name's bytes as stored in the archive.
    static func problem(_ raw: [UInt8]) -> String? {
        if raw.isEmpty { return "it is empty" }
        if raw.contains(0) { return "it contains a NUL byte" }
        if raw.contains(UInt8(ascii: "\\")) { return "it contains a backslash" }
        if raw.first == UInt8(ascii: "/") { return "it is an absolute path" }
        // "C:..." is absolute on Windows, where such packages are often made.
        if raw.count >= 2, raw[1] == UInt8(ascii: ":"), isASCIILetter(raw[0]) { return "it starts with a drive letter" }
        let components = raw.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        if components.contains(where: { $0.elementsEqual("..".utf8) }) { return "it has a '..' component" }
        return nil
    }

    /// The name for messages: printable ASCII kept, anything else as \xNN, at most 120 characters.
    static func display(_ raw: [UInt8]) -> String {
        var out = ""
        for byte in raw.prefix(120) {
            if byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "\\x" + hexDigits(byte, width: 2)
            }
        }
        return raw.count > 120 ? out + "…" : out
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }
}
