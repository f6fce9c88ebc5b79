import Testing
import SerialTransport
import Transport

/// `SerialPortInventory` on a fake `/dev` and `/sys`, laid out as Linux lays out a CDC ACM board
/// (the tty's `device` is the USB interface) and a USB-UART bridge (`device` is a port folder
/// under the interface).
@Suite struct SerialPortInventoryTests {
    /// The tree: ttyACM0 (a Zephyr board, with a by-id link), ttyUSB0 (a CP210x bridge, no by-id
    /// link), ttyACM1 (no sysfs entry), ttyS0 (not listed), and a by-id link whose device is gone.
    static func makeTree(in scratch: ScratchFolder) throws {
        try scratch.file("dev/ttyACM0")
        try scratch.file("dev/ttyACM1")
        try scratch.file("dev/ttyUSB0")
        try scratch.file("dev/ttyS0")
        try scratch.link("dev/serial/by-id/usb-ZEPHYR_Board_ABC123-if00", to: "../../ttyACM0")
        try scratch.link("dev/serial/by-id/usb-Gone_Board_1-if00", to: "../../ttyACM9")

        let hub = "sys/devices/pci0000:00/0000:00:14.0/usb1"
        try scratch.file("\(hub)/idVendor", "1d6b")  // the root hub: above the boards, never reached
        try scratch.file("\(hub)/idProduct", "0002")
        try scratch.file("\(hub)/1-2/idVendor", "2fe3")
        try scratch.file("\(hub)/1-2/idProduct", "0100")
        try scratch.file("\(hub)/1-2/serial", "ABC123")
        try scratch.file("\(hub)/1-2/manufacturer", "ZEPHYR")
        try scratch.file("\(hub)/1-2/product", "Board")
        try scratch.file("\(hub)/1-2/1-2:1.0/bInterfaceNumber", "00")
        try scratch.link("sys/class/tty/ttyACM0/device", to: "../../../devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0")

        try scratch.file("\(hub)/1-3/idVendor", "10c4")
        try scratch.file("\(hub)/1-3/idProduct", "ea60")
        try scratch.file("\(hub)/1-3/product", "CP2102N USB to UART Bridge Controller")
        try scratch.file("\(hub)/1-3/1-3:1.1/bInterfaceNumber", "01")
        try scratch.folder("\(hub)/1-3/1-3:1.1/ttyUSB0")
        try scratch.link("sys/class/tty/ttyUSB0/device", to: "../../../devices/pci0000:00/0000:00:14.0/usb1/1-3/1-3:1.1/ttyUSB0")
    }

    @Test func listsEachPortOnceWithItsByIDNameAndUSBDetails() throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        try Self.makeTree(in: scratch)
        let dev = "\(scratch.path)/dev"
        let ports = SerialPortInventory(devRoot: dev, sysRoot: "\(scratch.path)/sys").ports()

        #expect(ports.map(\.devicePath) == ["\(dev)/ttyACM0", "\(dev)/ttyACM1", "\(dev)/ttyUSB0"])
        #expect(ports.first == SerialPortInfo(devicePath: "\(dev)/ttyACM0",
                                              byIDPath: "\(dev)/serial/by-id/usb-ZEPHYR_Board_ABC123-if00",
                                              usb: .init(vendorID: 0x2FE3, productID: 0x0100, serialNumber: "ABC123",
                                                         manufacturer: "ZEPHYR", product: "Board", interfaceNumber: 0)))
        #expect(ports.first?.byIDName == "usb-ZEPHYR_Board_ABC123-if00")
        #expect(ports.dropFirst().first == SerialPortInfo(devicePath: "\(dev)/ttyACM1"))
        #expect(ports.last == SerialPortInfo(devicePath: "\(dev)/ttyUSB0",
                                             usb: .init(vendorID: 0x10C4, productID: 0xEA60,
                                                        product: "CP2102N USB to UART Bridge Controller",
                                                        interfaceNumber: 1)))
        #expect(ports.last?.peerPath == "\(dev)/ttyUSB0")
        #expect(ports.first?.peerPath == "\(dev)/serial/by-id/usb-ZEPHYR_Board_ABC123-if00")
    }

    @Test func findsNothingInAnEmptyOrMissingTree() throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        #expect(SerialPortInventory(devRoot: scratch.path, sysRoot: scratch.path).ports().isEmpty)
        #expect(SerialPortInventory(devRoot: "\(scratch.path)/none", sysRoot: "\(scratch.path)/none").ports().isEmpty)
    }
}
