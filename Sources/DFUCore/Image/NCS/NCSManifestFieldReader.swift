/// Reads the typed fields of one JSON object of an NCS manifest, each error naming the field by its
/// path (`files[1].image_index`). The accepted shapes are what sdk-nrf writes and what the phone
/// libraries accept (each rule says whose), nothing looser.
struct NCSManifestFieldReader {
    let object: [String: NCSJSONValue]
    /// `files[1]`, or empty for the top level.
    let path: String

    func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    private func missing(_ key: String) -> NCSPackageError {
        .manifestInvalid(reason: path.isEmpty ? "it has no \"\(key)\"" : "\(path) has no \"\(key)\"")
    }

    private func wrongType(_ key: String, _ value: NCSJSONValue, wanted: String) -> NCSPackageError {
        .manifestInvalid(reason: "\(name(key)) is \(value.kind), not \(wanted)")
    }

    func requiredString(_ key: String) throws(NCSPackageError) -> String {
        guard let value = object[key] else { throw missing(key) }
        guard case .string(let text) = value else { throw wrongType(key, value, wanted: "a string") }
        return text
    }

    /// Absent or null is nil (generate_zip.py writes null for a revision it could not find).
    func optionalString(_ key: String) throws(NCSPackageError) -> String? {
        guard let value = object[key] else { return nil }
        switch value {
        case .null: return nil
        case .string(let text): return text
        default: throw wrongType(key, value, wanted: "a string")
        }
    }

    /// A JSON integer in `range`: generate_zip.py writes `format-version`, `time`, `size` and `modtime`
    /// as integers, and iOSMcuManagerLibrary's McuMgrManifest decodes them as `Int` only.
    func requiredInteger(_ key: String, in range: ClosedRange<Int>) throws(NCSPackageError) -> Int {
        guard let value = object[key] else { throw missing(key) }
        guard case .integer(let number) = value else { throw wrongType(key, value, wanted: "an integer") }
        guard range.contains(number) else {
            throw .manifestInvalid(reason: "\(name(key)) is \(number), outside \(range.lowerBound)…\(range.upperBound)")
        }
        return number
    }

    /// An index written by generate_zip.py from a `key=value` word: a string of decimal digits ("1"),
    /// since only values starting with 0x become integers. A JSON integer is accepted too, as
    /// Android-nRF-Connect-Device-Manager's Gson reader does (iOS reads the string form).
    func optionalIndex(_ key: String, in range: ClosedRange<Int>) throws(NCSPackageError) -> Int? {
        guard let value = object[key] else { return nil }
        let number: Int
        switch value {
        case .integer(let given):
            number = given
        case .string(let text):
            guard !text.isEmpty, text.utf8.count <= 9, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                  let parsed = Int(text) else {
                throw .manifestInvalid(reason: "\(name(key)) is \"\(Self.shown(text))\", not a whole number")
            }
            number = parsed
        default:
            throw wrongType(key, value, wanted: "a whole number")
        }
        guard range.contains(number) else {
            throw .manifestInvalid(reason: "\(name(key)) is \(number), outside \(range.lowerBound)…\(range.upperBound)")
        }
        return number
    }

    /// `load_address`: generate_zip.py turns the build's `0x…` value into a JSON integer; iOS also
    /// accepts a string, which a device tree address (cmake/sysbuild/zip.cmake) could be. 32-bit flash.
    func optionalAddress(_ key: String) throws(NCSPackageError) -> UInt32? {
        guard let value = object[key] else { return nil }
        switch value {
        case .integer(let number):
            guard let address = UInt32(exactly: number) else {
                throw .manifestInvalid(reason: "\(name(key)) is \(number), not a 32-bit address")
            }
            return address
        case .string(let text):
            let lower = text.lowercased()
            let parsed = lower.hasPrefix("0x") ? UInt32(lower.dropFirst(2), radix: 16) : UInt32(lower, radix: 10)
            guard let parsed else {
                throw .manifestInvalid(reason: "\(name(key)) is \"\(Self.shown(text))\", not a 32-bit address")
            }
            return parsed
        default:
            throw wrongType(key, value, wanted: "an address")
        }
    }

    /// At most 40 printable ASCII characters of a value, for messages.
    static func shown(_ text: String) -> String {
        let kept = text.unicodeScalars.prefix(40).map { (0x20..<0x7F).contains($0.value) ? Character($0) : "?" }
        return String(kept) + (text.unicodeScalars.count > 40 ? "…" : "")
    }
}
