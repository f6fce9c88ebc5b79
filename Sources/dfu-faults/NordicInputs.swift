import DFUCore
import Foundation

/// The Nordic scenarios' files, read and checked once before the first run: the package (with its
/// application's firmware and init packet, what the transfer sends), the key that signed it, and
/// the other key the `nordic-wrong-key` bootloader trusts.
struct NordicInputs: Sendable {
    let packageName: String
    let package: [UInt8]
    /// What goes over the Packet characteristic once: the init packet and the firmware.
    let initPacketBytes: Int
    let firmwareBytes: Int
    /// The init packet's fw_version: what the device must run at the end.
    let version: UInt32
    let key: PublicKey
    let otherKeyPath: String

    static func load(_ options: FaultsOptions) throws(FaultsError) -> NordicInputs {
        let path = options.packagePath
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .fileUnreadable(path: path, reason: "no such readable file")
        }
        let bytes = [UInt8](data)
        let package: NordicPackage
        let key: PublicKey
        do {
            package = try NordicPackage(zipBytes: bytes)
            key = try PublicKey.load(path: options.nordicKeyPath)
            _ = try PublicKey.load(path: options.nordicOtherKeyPath)
        } catch {
            throw .fileUnreadable(path: "\(path) or its keys", reason: "\(error)")
        }
        guard package.images.count == 1, let image = package.images.first, image.kind == .application,
              let version = image.initPacket.initCommand.fwVersion else {
            throw .fileUnreadable(path: path, reason: "the campaign needs a package with one application and its fw_version")
        }
        return NordicInputs(packageName: URL(fileURLWithPath: path).lastPathComponent, package: bytes,
                            initPacketBytes: image.initPacket.bytes.count, firmwareBytes: image.firmware.count,
                            version: version, key: key, otherKeyPath: options.nordicOtherKeyPath)
    }
}
