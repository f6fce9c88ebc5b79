/// How a serial port is set up: the line speed and whether RTS/CTS hardware flow control is on.
/// The frame is always 8 data bits, no parity, one stop bit (8N1), the usual frame of a board's
/// console.
///
/// Only speeds that termios can set are accepted: the standard `B` constants from 1,200 to
/// 4,000,000 baud (termios(3); Linux has no arbitrary speeds without `BOTHER`, which dfu does not
/// use). Anything else is refused when the settings are made, naming the nearest supported speeds,
/// so a typo fails before a port is opened.
public struct SerialPortSettings: Hashable, Sendable {
    /// Line speed in baud (bits per second on the wire).
    public let baud: Int
    /// RTS/CTS hardware flow control (`CRTSCTS`). Off by default: most USB CDC ACM consoles ignore
    /// it, and a UART without the CTS line wired would never send with it on.
    public let hardwareFlowControl: Bool

    /// 115,200 baud, no hardware flow control: the usual default of a board's console.
    public static let standard = SerialPortSettings(checked: 115_200, hardwareFlowControl: false)

    /// The speeds termios can set, in ascending order.
    public static let supportedBauds: [Int] = [
        1_200, 1_800, 2_400, 4_800, 9_600, 19_200, 38_400, 57_600, 115_200, 230_400, 460_800, 500_000, 576_000,
        921_600, 1_000_000, 1_152_000, 1_500_000, 2_000_000, 2_500_000, 3_000_000, 3_500_000, 4_000_000,
    ]

    /// Throws `.unsupportedBaud` for a speed not in `supportedBauds`.
    public init(baud: Int = 115_200, hardwareFlowControl: Bool = false) throws(SerialPortError) {
        guard Self.supportedBauds.contains(baud) else {
            throw .unsupportedBaud(baud, nearest: Self.nearestSupportedBauds(to: baud))
        }
        self.init(checked: baud, hardwareFlowControl: hardwareFlowControl)
    }

    private init(checked baud: Int, hardwareFlowControl: Bool) {
        self.baud = baud
        self.hardwareFlowControl = hardwareFlowControl
    }

    /// The most value bytes per second the line carries: each byte is 10 bits on the wire in 8N1
    /// (a start bit, 8 data bits, a stop bit).
    public var bytesPerSecond: Double { Double(baud) / 10 }

    /// The supported speeds either side of `baud` (one when it lies outside the range).
    public static func nearestSupportedBauds(to baud: Int) -> [Int] {
        let below = supportedBauds.last { $0 < baud }
        let above = supportedBauds.first { $0 > baud }
        return [below, above].compactMap { $0 }
    }
}
