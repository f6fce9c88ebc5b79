import DFUCore

/// Reads a whole input file (an image, a plan) into memory through `InputFile`, refusing what
/// cannot be one: directories, devices, and files larger than `limit`. Failures say why in dfu's
/// words and exit 3 through `DFUError.fileUnreadable`.
enum FileReader {
    /// Far above any MCUboot slot; a bigger "image" is a wrong path, not firmware.
    static let defaultLimit = 64 * 1024 * 1024

    static func readAll(path: String, limit: Int = defaultLimit, what: String = "an image") throws(DFUError) -> [UInt8] {
        do throws(InputFileProblem) {
            return try InputFile.load(path: path, limit: limit, what: what)
        } catch {
            throw .fileUnreadable(path: path, reason: error.description)
        }
    }
}
