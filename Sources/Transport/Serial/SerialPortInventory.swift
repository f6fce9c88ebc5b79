/// The serial ports of this computer, for `dfu scan --serial`: every `<devRoot>/serial/by-id/*`
/// link, and every `ttyACM*` and `ttyUSB*` in `devRoot`, each port once (a by-id link and the
/// `ttyACM` it leads to are one port), sorted by device path. For each, sysfs
/// (`<sysRoot>/class/tty/<name>/device`, then up to the USB device's folder, the one holding
/// `idVendor`) gives the USB vendor and product ids, serial number, manufacturer and product
/// strings, and the interface number. The roots are arguments, so tests list a fake tree.
public struct SerialPortInventory: Sendable {
    public let devRoot: String
    public let sysRoot: String

    /// The device-name prefixes of USB serial ports: CDC ACM (`cdc_acm`) and USB-UART bridges
    /// (`usbserial`: FTDI, CP210x, CH34x, …).
    static let devicePrefixes = ["ttyACM", "ttyUSB"]
    /// The most folders walked up from a tty's `device` link to its USB device (an interface, then
    /// for a USB-UART bridge a port folder, then the device: 3 is enough; the rest is margin).
    static let maxWalkUp = 8

    public init(devRoot: String = "/dev", sysRoot: String = "/sys") {
        self.devRoot = devRoot.hasSuffix("/") && devRoot.count > 1 ? String(devRoot.dropLast()) : devRoot
        self.sysRoot = sysRoot.hasSuffix("/") && sysRoot.count > 1 ? String(sysRoot.dropLast()) : sysRoot
    }

    /// The ports found now; empty when there are none (or `devRoot` cannot be read).
    public func ports() -> [SerialPortInfo] {
        var byDevice: [String: String] = [:]
        for (link, device) in SerialByID(devRoot: devRoot).links() where byDevice[device] == nil {
            byDevice[device] = link
        }
        var devices = Set(byDevice.keys)
        for name in FileSystem.entries(of: devRoot) where Self.devicePrefixes.contains(where: name.hasPrefix) {
            if let device = FileSystem.realPath("\(devRoot)/\(name)") { devices.insert(device) }
        }
        return devices.sorted().map { device in
            SerialPortInfo(devicePath: device, byIDPath: byDevice[device], usb: usbDetails(ofTTY: Self.name(of: device)))
        }
    }

    /// The USB device behind the tty `name` (`ttyACM0`), from sysfs; nil when it is no USB port.
    func usbDetails(ofTTY name: String) -> SerialPortInfo.USBDetails? {
        guard !name.isEmpty, let start = FileSystem.realPath("\(sysRoot)/class/tty/\(name)/device") else { return nil }
        var folder = start
        var interface: Int?
        for _ in 0..<Self.maxWalkUp {
            if interface == nil, let text = FileSystem.readText("\(folder)/bInterfaceNumber") {
                interface = Int(text, radix: 16)
            }
            if let vendor = FileSystem.readText("\(folder)/idVendor").flatMap({ UInt16($0, radix: 16) }) {
                guard let product = FileSystem.readText("\(folder)/idProduct").flatMap({ UInt16($0, radix: 16) }) else {
                    return nil
                }
                return SerialPortInfo.USBDetails(vendorID: vendor, productID: product,
                                                 serialNumber: FileSystem.readText("\(folder)/serial"),
                                                 manufacturer: FileSystem.readText("\(folder)/manufacturer"),
                                                 product: FileSystem.readText("\(folder)/product"),
                                                 interfaceNumber: interface)
            }
            guard let parent = Self.parent(of: folder) else { return nil }
            folder = parent
        }
        return nil
    }

    /// The last component of a path.
    static func name(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? ""
    }

    /// The folder holding `path`; nil at the root.
    static func parent(of path: String) -> String? {
        guard let slash = path.lastIndex(of: "/"), path != "/" else { return nil }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
