import DFUCore
import Foundation

/// The files every run uses, read and checked once before the first run: the image (with what the
/// device will report for it), the key that signed it, and the other key the `wrong-key` device's
/// bootloader trusts.
struct FlashInputs: Sendable {
    let imageName: String
    let image: [UInt8]
    /// The image's SHA256 TLV: what the device reports as the hash of the slot holding it.
    let slotHash: [UInt8]
    let version: ImageVersion
    let key: PublicKey
    let otherKeyPath: String

    static func load(_ options: FaultsOptions) throws(FaultsError) -> FlashInputs {
        guard let data = FileManager.default.contents(atPath: options.imagePath) else {
            throw .fileUnreadable(path: options.imagePath, reason: "no such readable file")
        }
        let bytes = [UInt8](data)
        let parsed: MCUbootImage
        let key: PublicKey
        do {
            parsed = try MCUbootImage(bytes: bytes)
            key = try PublicKey.load(path: options.keyPath)
            // Read here so a bad path fails once, not as every wrong-key run's device set-up.
            _ = try PublicKey.load(path: options.otherKeyPath)
        } catch {
            throw .fileUnreadable(path: "\(options.imagePath) or its keys", reason: error.description)
        }
        guard let slotHash = parsed.sha256TLV else {
            throw .fileUnreadable(path: options.imagePath, reason: "the image has no SHA256 TLV")
        }
        return FlashInputs(imageName: URL(fileURLWithPath: options.imagePath).lastPathComponent, image: bytes,
                           slotHash: slotHash, version: parsed.version, key: key, otherKeyPath: options.otherKeyPath)
    }
}
