import DFUCore
import Foundation

/// Multi-part Nordic DFU packages built in the tests (nrfutil makes a SoftDevice part only from a
/// real SoftDevice hex): a manifest.json naming each part's .bin and .dat, zipped stored.
///
///     let zip = try NordicTestPackage([.softDeviceBootloader(version: 2), .sampleApplication()]).bytes
public struct NordicTestPackage: Sendable {
    public struct Part: Sendable {
        /// The manifest key: `softdevice_bootloader`, `softdevice`, `bootloader`, `application`.
        public var kind: String
        public var firmware: [UInt8]
        public var initPacket: [UInt8]
        /// `info_read_only_metadata` of a softdevice_bootloader part.
        public var split: (softDevice: Int, bootloader: Int)?

        public init(kind: String, firmware: [UInt8], initPacket: [UInt8], split: (softDevice: Int, bootloader: Int)? = nil) {
            self.kind = kind
            self.firmware = firmware
            self.initPacket = initPacket
            self.split = split
        }

        /// The application of `app-signed-3.zip` (nrfutil, fw_version 3, signed with the test key).
        public static func sampleApplication() throws -> Part {
            try sample("nordic/app-signed-3.zip", kind: "application")
        }

        /// The bootloader of `bootloader-signed-2.zip` (nrfutil, bl_version 2, signed).
        public static func sampleBootloader() throws -> Part {
            try sample("nordic/bootloader-signed-2.zip", kind: "bootloader")
        }

        /// A fake SoftDevice (8 KiB) and bootloader (4 KiB) as one part, its init packet signed with
        /// the test key: bootloader version `version`, sd_req 0x0101.
        public static func softDeviceBootloader(version: UInt32) throws -> Part {
            let softDevice = (0 ..< 8192).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
            let bootloader = (0 ..< 4096).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) }
            let initPacket = NordicTestInitPacket.softDeviceBootloader(softDevice: softDevice, bootloader: bootloader,
                                                                       version: version)
            return Part(kind: "softdevice_bootloader", firmware: softDevice + bootloader, initPacket: try initPacket.signed(),
                        split: (softDevice.count, bootloader.count))
        }

        private static func sample(_ path: String, kind: String) throws -> Part {
            let package = try NordicPackage(zipBytes: try NordicTestSamples.bytes(path))
            guard let image = package.images.first else { throw CocoaError(.fileReadCorruptFile) }
            return Part(kind: kind, firmware: image.firmware, initPacket: image.initPacket.bytes)
        }
    }

    public var parts: [Part]

    public init(_ parts: [Part]) { self.parts = parts }

    public var bytes: [UInt8] {
        var entries: [TestZip.Entry] = []
        var items: [String] = []
        for part in parts {
            entries += [.init(part.kind + ".bin", part.firmware), .init(part.kind + ".dat", part.initPacket)]
            var item = #""\#(part.kind)": {"bin_file": "\#(part.kind).bin", "dat_file": "\#(part.kind).dat""#
            if let split = part.split {
                item += #", "info_read_only_metadata": {"bl_size": \#(split.bootloader), "sd_size": \#(split.softDevice)}"#
            }
            items.append(item + "}")
        }
        let manifest = #"{"manifest": {"# + items.joined(separator: ", ") + "}}"
        return TestZip(entries + [.init("manifest.json", Array(manifest.utf8))]).bytes
    }

    /// Writes the package into a new temporary directory and runs `body` with its path; the
    /// directory goes afterwards.
    public func withFile<T>(named name: String, _ body: (String) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nordic-package-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return try body(file.path)
    }
}
