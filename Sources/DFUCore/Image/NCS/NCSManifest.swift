/// `manifest.json` of an nRF Connect SDK `dfu_application.zip`, as sdk-nrf's
/// `scripts/bootloader/generate_zip.py` writes it:
///
///     {"format-version": 1, "time": 1733097600, "files": [{"type": "application", "board": …,
///      "soc": …, "load_address": 49664, "image_index": "0", …, "size": 49814,
///      "file": "app.signed.bin", "modtime": 1733097600}], "name": "app",
///      "firmware": {"zephyr": {"revision": …}, "nrf": {"revision": …}}}
///
/// Top-level rules and their sources (nrfconnect/sdk-nrf unless named):
/// - `format-version`, `time`, `files`: always written by generate_zip.py and required by iOS
///   (IOS-nRF-Connect-Device-Manager `iOSMcuManagerLibrary/Source/McuMgrManifest.swift`).
///   format-version was 0 until generate_zip.py gained `--format-version` (default 1); dfu reads
///   those two and refuses a newer one rather than guess what it changed.
/// - `name` (`--name`, fw_zip.cmake passes the application's name) and `firmware` (`--meta-info-file`:
///   the zephyr and nrf revisions, either may be null) are optional.
/// - A Nordic DFU package's manifest (pc-nrfutil) is `{"manifest": {...}}` instead: see `describesNCSPackage`.
/// Unknown keys are ignored, here and in each file entry (`NCSManifestFile`).
public struct NCSManifest: Sendable, Equatable {
    /// generate_zip.py writes a few hundred bytes per image; 64 KiB is far more than a real one needs.
    public static let maximumSize = 64 * 1024
    public static let knownFormatVersions = 0...1

    public let formatVersion: Int
    /// When the zip was made, in seconds since 1970.
    public let time: Int
    public let name: String?
    public let zephyrRevision: String?
    public let nrfRevision: String?
    /// In manifest order.
    public let files: [NCSManifestFile]

    public init(json: [UInt8]) throws(NCSPackageError) {
        guard json.count <= Self.maximumSize else {
            throw .manifestInvalid(reason: "it is \(json.count) bytes, more than the \(Self.maximumSize) a manifest can be")
        }
        guard let root = NCSJSONValue.parse(json) else { throw .manifestInvalid(reason: "it is not valid JSON") }
        guard case .object(let object) = root else {
            throw .manifestInvalid(reason: "it is \(root.kind), not an object")
        }
        let fields = NCSManifestFieldReader(object: object, path: "")
        formatVersion = try fields.requiredInteger("format-version", in: 0...Int(Int32.max))
        guard Self.knownFormatVersions.contains(formatVersion) else {
            throw .formatVersionUnsupported(formatVersion)
        }
        time = try fields.requiredInteger("time", in: 0...Int(Int64.max))
        name = try fields.optionalString("name")
        (zephyrRevision, nrfRevision) = try Self.revisions(object["firmware"])
        guard let list = object["files"] else { throw .manifestInvalid(reason: "it has no \"files\"") }
        guard case .array(let entries) = list else {
            throw .manifestInvalid(reason: "files is \(list.kind), not an array")
        }
        guard !entries.isEmpty else { throw .manifestInvalid(reason: "its files array is empty") }
        var files: [NCSManifestFile] = []
        for (index, entry) in entries.enumerated() {
            files.append(try NCSManifestFile(entry, path: "files[\(index)]"))
        }
        self.files = files
    }

    /// Whether `json` is an NCS manifest rather than a Nordic DFU package's: an object with a `files`
    /// array and no `manifest` key (pc-nrfutil's manifest.py puts everything under `manifest`). Text
    /// that is not JSON counts as NCS when it names "format-version" and not "manifest", so that a
    /// damaged NCS manifest is reported in NCS terms rather than as a broken nrfutil package.
    public static func describesNCSPackage(json: [UInt8]) -> Bool {
        guard json.count <= maximumSize else { return false }
        guard let root = NCSJSONValue.parse(json) else {
            return json.firstRange(of: Array(#""format-version""#.utf8)) != nil
                && json.firstRange(of: Array(#""manifest""#.utf8)) == nil
        }
        guard case .object(let object) = root, case .array? = object["files"] else { return false }
        return object["manifest"] == nil
    }

    private static func revisions(_ value: NCSJSONValue?) throws(NCSPackageError) -> (String?, String?) {
        guard let value, value != .null else { return (nil, nil) }
        guard case .object(let firmware) = value else {
            throw .manifestInvalid(reason: "firmware is \(value.kind), not an object")
        }
        func revision(_ module: String) throws(NCSPackageError) -> String? {
            guard let entry = firmware[module], entry != .null else { return nil }
            guard case .object(let fields) = entry else {
                throw .manifestInvalid(reason: "firmware.\(module) is \(entry.kind), not an object")
            }
            return try NCSManifestFieldReader(object: fields, path: "firmware.\(module)").optionalString("revision")
        }
        return (try revision("zephyr"), try revision("nrf"))
    }
}
