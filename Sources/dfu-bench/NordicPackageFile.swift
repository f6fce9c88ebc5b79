import DFUCore
import Foundation

/// The Nordic DFU package the benchmark sends: its application image's init packet and firmware.
struct NordicPackageFile: Sendable {
    let path: String
    let initPacket: [UInt8]
    let firmware: [UInt8]

    var name: String { URL(fileURLWithPath: path).lastPathComponent }

    static func load(_ path: String) throws(BenchError) -> NordicPackageFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .imageUnreadable(path: path, reason: "no such readable file")
        }
        do {
            let package = try NordicPackage(zipBytes: [UInt8](data))
            guard package.images.count == 1, let image = package.images.first else {
                throw BenchError.imageUnreadable(path: path, reason: "the benchmark sends a package with one image")
            }
            return NordicPackageFile(path: path, initPacket: image.initPacket.bytes, firmware: image.firmware)
        } catch let error as BenchError {
            throw error
        } catch {
            throw .imageUnreadable(path: path, reason: "\(error)")
        }
    }
}
