import Foundation

/// `manifest.json` of a Nordic DFU package (pc-nrfutil manifest.py):
/// `{"manifest": {"application": {"bin_file": "app.bin", "dat_file": "app.dat"}, …}}`. Unknown keys are
/// ignored (nrfutil versions add some); a part named but without both file names is an error.
public struct NordicManifest: Sendable, Equatable {
    public struct Part: Sendable, Equatable {
        public var kind: NordicImageKind
        public var binFile: String
        public var datFile: String
        /// `info_read_only_metadata` of softdevice_bootloader: how the combined .bin splits.
        public var softdeviceSize: Int?
        public var bootloaderSize: Int?
    }

    /// nrfutil's manifests are a few hundred bytes.
    public static let maximumSize = 64 * 1024

    /// In update order (`NordicImageKind.allCases`).
    public let parts: [Part]

    public init(json: [UInt8]) throws(NordicPackageError) {
        guard json.count <= Self.maximumSize else {
            throw .manifestInvalid(reason: "it is \(json.count) bytes, more than the \(Self.maximumSize) a manifest can be")
        }
        let file: ManifestFile
        do {
            file = try JSONDecoder().decode(ManifestFile.self, from: Data(json))
        } catch let error as DecodingError {
            throw .manifestInvalid(reason: Self.reason(error))
        } catch {
            throw .manifestInvalid(reason: "it is not valid JSON")
        }
        var parts: [Part] = []
        for kind in NordicImageKind.allCases {
            guard let entry = file.manifest.entry(kind) else { continue }
            parts.append(Part(kind: kind, binFile: entry.bin_file, datFile: entry.dat_file,
                              softdeviceSize: entry.info_read_only_metadata?.sd_size,
                              bootloaderSize: entry.info_read_only_metadata?.bl_size))
        }
        guard !parts.isEmpty else {
            throw .manifestInvalid(reason: "it names no firmware (application, bootloader, softdevice or softdevice_bootloader)")
        }
        self.parts = parts
    }

    private static func reason(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map(\.stringValue).filter { !$0.isEmpty }
            return keys.isEmpty ? "the top level" : keys.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = context.codingPath.isEmpty ? "the top level" : path(context)
            return "\(parent) has no \"\(key.stringValue)\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context)) has the wrong type"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "it is not valid JSON" : "\(path(context)) is invalid"
        @unknown default:
            return "it does not decode"
        }
    }
}

// The JSON's own shape; snake_case names as in the file.
private struct ManifestFile: Decodable {
    struct Entry: Decodable {
        struct Metadata: Decodable {
            var bl_size: Int?
            var sd_size: Int?
        }
        var bin_file: String
        var dat_file: String
        var info_read_only_metadata: Metadata?
    }

    struct Parts: Decodable {
        var application: Entry?
        var bootloader: Entry?
        var softdevice: Entry?
        var softdevice_bootloader: Entry?

        func entry(_ kind: NordicImageKind) -> Entry? {
            switch kind {
            case .application: return application
            case .bootloader: return bootloader
            case .softdevice: return softdevice
            case .softdeviceBootloader: return softdevice_bootloader
            }
        }
    }

    var manifest: Parts
}
