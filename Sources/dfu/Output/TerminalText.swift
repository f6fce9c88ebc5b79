/// Text from outside dfu (a device's firmware revision, a reason string in an SMP reply, a BLE
/// name, a file name) made safe to print on a terminal: control characters, including ESC and the
/// C1 range, are shown as `\u{1b}`-style escapes instead of being sent. A device must not be able
/// to move the cursor, retitle the window or forge an `OK:` line of its own with an embedded newline.
enum TerminalText {
    static func sanitized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var output = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                output += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    /// C0 (tab included: it would misalign the progress bar), DEL, C1, and the line and paragraph
    /// separators some terminals treat as newlines.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: return true
        default: return false
        }
    }
}
