/// The stable names udev gives USB serial ports: links in `<devRoot>/serial/by-id/` named after
/// the USB device (vendor, product, serial number, interface), e.g.
/// `usb-Acme_Board_3A1B2C3D-if00 -> ../../ttyACM0`. A board that resets
/// re-enumerates and may come back as another `ttyACMn`; its by-id name stays.
struct SerialByID {
    /// The folder of the by-id links.
    let directory: String
    /// `<devRoot>/serial/`: paths under it (by-id, by-path) are stable already.
    let serialDirectory: String

    init(devRoot: String) {
        let root = devRoot.hasSuffix("/") ? String(devRoot.dropLast()) : devRoot
        serialDirectory = "\(root)/serial/"
        directory = "\(root)/serial/by-id"
    }

    /// Whether `path` is a stable name already (given as a by-id or by-path link), to be used as is.
    func isStable(_ path: String) -> Bool {
        path.hasPrefix(serialDirectory)
    }

    /// The by-id link that leads to the same device as `path` (realpath(3) of both); nil when none
    /// does, or `path` leads nowhere. The first by name when several do.
    func link(for path: String) -> String? {
        guard let device = FileSystem.realPath(path) else { return nil }
        return FileSystem.entries(of: directory)
            .map { "\(directory)/\($0)" }
            .first { FileSystem.realPath($0) == device }
    }

    /// Every by-id link and the device it leads to (dangling links are left out), sorted by name.
    func links() -> [(link: String, device: String)] {
        FileSystem.entries(of: directory).compactMap { name in
            let link = "\(directory)/\(name)"
            return FileSystem.realPath(link).map { (link, $0) }
        }
    }
}
