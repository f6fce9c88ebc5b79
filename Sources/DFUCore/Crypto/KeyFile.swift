import Foundation

/// Reads a key file for `PublicKey` and `ImageDecryptionKey`. Key files are a few hundred bytes; a
/// large file given by mistake is refused instead of read whole.
enum KeyFile {
    static let maximumSize = 64 * 1024

    static func read(path: String) throws(ImageError) -> [UInt8] {
        let contents: Data
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            contents = try handle.read(upToCount: maximumSize + 1) ?? Data()
        } catch {
            throw .keyUnusable(path: path, reason: "the file cannot be read (\(error.localizedDescription))")
        }
        guard contents.count <= maximumSize else {
            throw .keyUnusable(path: path, reason: "the file is larger than \(maximumSize / 1024) KiB, too large for a PEM key")
        }
        return [UInt8](contents)
    }
}
