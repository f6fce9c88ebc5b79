import DFUCore
import Foundation

/// An image the benchmark uploads, read whole and checked to be an MCUboot image, with the SHA-256
/// the upload session is named by.
struct ImageFile: Sendable {
    let path: String
    let bytes: [UInt8]
    let sha256: [UInt8]

    var name: String { URL(fileURLWithPath: path).lastPathComponent }

    static func load(_ path: String) throws(BenchError) -> ImageFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .imageUnreadable(path: path, reason: "no such readable file")
        }
        let bytes = [UInt8](data)
        do {
            _ = try MCUbootImage(bytes: bytes)
            return ImageFile(path: path, bytes: bytes, sha256: try SHA256.hash(bytes))
        } catch {
            throw .imageUnreadable(path: path, reason: "\(error)")
        }
    }

    var job: ImageUploadJob { ImageUploadJob(image: bytes, sha256: sha256) }
}
