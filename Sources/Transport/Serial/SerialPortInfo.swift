/// One serial port `SerialPortInventory` found: its device node, its stable by-id name, and what
/// sysfs says about the USB device behind it.
public struct SerialPortInfo: Hashable, Sendable {
    /// The device node, links resolved (`/dev/ttyACM0`).
    public var devicePath: String
    /// The by-id link that leads to it (`/dev/serial/by-id/usb-…-if00`), when udev made one.
    public var byIDPath: String?
    /// The USB device, for a USB serial port (CDC ACM or a USB-UART bridge); nil for others.
    public var usb: USBDetails?

    /// What the USB device's sysfs attributes say (`idVendor`, `idProduct`, `serial`,
    /// `manufacturer`, `product`) and the interface the port is (`bInterfaceNumber`).
    public struct USBDetails: Hashable, Sendable {
        public var vendorID: UInt16
        public var productID: UInt16
        public var serialNumber: String?
        public var manufacturer: String?
        public var product: String?
        public var interfaceNumber: Int?

        public init(vendorID: UInt16, productID: UInt16, serialNumber: String? = nil, manufacturer: String? = nil,
                    product: String? = nil, interfaceNumber: Int? = nil) {
            self.vendorID = vendorID
            self.productID = productID
            self.serialNumber = serialNumber
            self.manufacturer = manufacturer
            self.product = product
            self.interfaceNumber = interfaceNumber
        }
    }

    public init(devicePath: String, byIDPath: String? = nil, usb: USBDetails? = nil) {
        self.devicePath = devicePath
        self.byIDPath = byIDPath
        self.usb = usb
    }

    /// The by-id link's name alone (`usb-…-if00`).
    public var byIDName: String? {
        byIDPath.flatMap { $0.split(separator: "/").last.map(String.init) }
    }

    /// The peer identity that opens this port, by its stable name when it has one.
    public var peerPath: String { byIDPath ?? devicePath }
}
