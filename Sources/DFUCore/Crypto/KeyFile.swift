/// Reads a key file for `PublicKey` and `ImageDecryptionKey`. Key files are a few hundred bytes; a
/// large file given by mistake is refused instead of read whole.
enum KeyFile {
    static let maximumSize = 64 * 1024

    static func read(path: String) throws(ImageError) -> [UInt8] {
        do throws(InputFileProblem) {
            return try InputFile.load(path: path, limit: maximumSize, what: "a key file")
        } catch {
            throw .keyUnreadable(path: path, reason: error.description)
        }
    }
}
