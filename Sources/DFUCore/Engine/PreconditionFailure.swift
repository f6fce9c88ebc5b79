/// A reason not to start the transfer, found before the first byte is sent. Exit 4.
public enum PreconditionFailure: Error, Sendable, Equatable, CustomStringConvertible {
    case batteryLow(level: Int, minimum: Int)
    case notNewer(image: ImageVersion, running: ImageVersion)
    case imageTooLarge(size: Int, slotSize: Int)
    case hostOnBattery(level: Int?)
    /// The device updates in a way dfu does not support (`DeviceFacts.unsupported`).
    case unsupportedDevice(String)

    public var description: String {
        switch self {
        case .batteryLow(let level, let minimum):
            return "device battery is at \(level) %, below the required \(minimum) %. Charge the device, or lower the limit with --min-battery."
        case .notNewer(let image, let running):
            return "image version \(image) is not newer than the running \(running). Pass --allow-downgrade to flash it anyway."
        case .imageTooLarge(let size, let slotSize):
            return "image is \(size) bytes but the device's slot holds \(slotSize). Build a smaller image or check the device's partition layout."
        case .hostOnBattery(let level):
            let detail = level.map { " (\($0) %)" } ?? ""
            return "this computer runs on battery\(detail). Plug it in, or pass --allow-host-battery."
        case .unsupportedDevice(let what):
            return "\(what); dfu does not support updating it. Nothing was sent."
        }
    }
}
