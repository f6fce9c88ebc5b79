import DFUCore
import Transport

/// The file a journal names must still be the file the update started with: a resumed upload
/// continues from the device's offset, and bytes from another file after it would make an image
/// that is neither.
enum ResumeFileCheck {
    /// Nil when the file at the journal's path has the journal's SHA-256; else why not (exit 3).
    static func problem(_ journal: UpdateJournal) -> DFUError? {
        let bytes: [UInt8]
        do throws(DFUError) { bytes = try FileReader.readAll(path: journal.imagePath) } catch { return error }
        let digest: [UInt8]
        do throws(ImageError) { digest = try SHA256.hash(bytes) } catch { return .image(error) }
        let sha256 = hexString(digest)
        guard sha256 == journal.imageSHA256 else {
            return .fileChanged(path: journal.imagePath, was: journal.imageSHA256, now: sha256)
        }
        return nil
    }
}
