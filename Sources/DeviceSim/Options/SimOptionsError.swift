/// Why virtual-device options were refused. Each message names the key or text at fault and what
/// would be accepted; all of them are usage errors.
public enum SimOptionsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The device text does not start with `sim`.
    case notASimDevice(String)
    /// An item between commas has no `=`.
    case missingEquals(item: String)
    case unknownKey(String)
    case duplicateKey(String)
    case badValue(key: String, value: String, expected: String)
    /// The `key=` file cannot be used as a bootloader key.
    case keyUnusable(path: String, reason: String)
    /// The `enc_key=` file cannot be used as an image decryption key.
    case encryptionKeyUnusable(path: String, reason: String)
    /// The options are each valid but the device cannot be built from them (e.g. the slot is too
    /// small for the running image).
    case inconsistent(String)

    public var description: String {
        switch self {
        case .notASimDevice(let text):
            return "'\(text)' is not a virtual device: write sim or sim:key=value,… (e.g. sim:version=1.0.0,battery=80)"
        case .missingEquals(let item) where item.isEmpty:
            return "virtual device options contain an empty item (two commas in a row, or a trailing comma)"
        case .missingEquals(let item):
            let hint = item.contains("@")
                ? "; to give several faults join them with '+' (fault=disconnect@40%+reboot@60%) or repeat fault="
                : ""
            return "virtual device option '\(item)' has no '=': write key=value\(hint)"
        case .unknownKey(let key):
            return "unknown virtual device option '\(key)'; known options: \(SimOptions.knownKeys.joined(separator: ", "))"
        case .duplicateKey(let key):
            return "virtual device option '\(key)' is given twice (only fault= may repeat)"
        case .badValue(let key, let value, let expected):
            return "virtual device option \(key)='\(value)' is not valid: expected \(expected)"
        case .keyUnusable(let path, let reason):
            return "virtual device option key='\(path)' cannot be used: \(reason)"
        case .encryptionKeyUnusable(let path, let reason):
            return "virtual device option enc_key='\(path)' cannot be used: \(reason)"
        case .inconsistent(let reason):
            return "virtual device options do not fit together: \(reason)"
        }
    }
}
