/// A reason not to start the transfer, found before the first byte is sent, or (the battery) not to
/// activate what was sent. Exit 4.
public enum PreconditionFailure: Error, Sendable, Equatable, CustomStringConvertible {
    case batteryLow(level: Int, minimum: Int)
    /// The battery, read again after the upload, is below the minimum: the image is on the device
    /// and nothing activated it (MCUboot's swap is the step a brown-out must not cut).
    case batteryFell(level: Int, minimum: Int)
    /// `imageText` and `runningText` say the versions in the protocol's own words when they are not
    /// MCUboot's (a Nordic package's fw_version, its application's firmware revision).
    case notNewer(image: ImageVersion, running: ImageVersion, imageText: String? = nil, runningText: String? = nil)
    case imageTooLarge(size: Int, slotSize: Int)
    case hostOnBattery(level: Int?)
    /// The device updates in a way dfu does not support (`DeviceFacts.unsupported`).
    case unsupportedDevice(String)
    /// A direct-XIP device runs from one slot, so the image goes to the other (`freeSlot`), and the
    /// file has no variant linked for it.
    case directXIPVariantMissing(freeSlot: Int)
    /// The file is a direct-XIP build (a variant per slot) but the device's bootloader runs in
    /// another mode (`mode`, as bootloader info names it).
    case directXIPBuildOnOtherMode(mode: String)
    /// An SMP operation (`dfu image list`, `dfu reset`, …) asked of a Nordic Secure DFU device,
    /// which has no SMP service.
    case notSMP(device: String, operation: String)
    /// A failure of one image of an update with several.
    indirect case inImage(UpdateImageName, PreconditionFailure)

    public var description: String {
        switch self {
        case .batteryLow(let level, let minimum):
            return "device battery is at \(level) %, below the required \(minimum) %. Charge the device, or lower the limit with --min-battery."
        case .batteryFell(let level, let minimum):
            return "the device's battery fell to \(level) % during the transfer (minimum \(minimum) %); the image is uploaded "
                + "but not activated. Charge the device and run the same command again: it finds the image uploaded and "
                + "only activates it."
        case .notNewer(let image, let running, let imageText, let runningText):
            return "\(imageText ?? "image version \(image)") is not newer than the running \(runningText ?? running.description). "
                + "Pass --allow-downgrade to flash it anyway."
        case .imageTooLarge(let size, let slotSize):
            return "image is \(size) bytes but the device's slot holds \(slotSize). Build a smaller image or check the device's partition layout."
        case .hostOnBattery(let level):
            let detail = level.map { " (\($0) %)" } ?? ""
            return "this computer runs on battery\(detail). Plug it in, or pass --allow-host-battery."
        case .unsupportedDevice(let what):
            return "\(what); dfu does not support updating it. Nothing was sent."
        case .directXIPVariantMissing(let freeSlot):
            return "the device runs from slot \(1 - freeSlot) in direct-XIP mode, so the update goes to slot \(freeSlot), but "
                + "the zip has no variant linked for slot \(freeSlot). Use the build's dfu_application.zip, which holds both."
        case .directXIPBuildOnOtherMode(let mode):
            return "the zip is a direct-XIP build (one variant per slot), but the device's MCUboot runs in \(mode) mode. "
                + "Use a build made for the device's bootloader configuration."
        case .notSMP(let device, let operation):
            return "\(device) is a Nordic Secure DFU device: it does not speak SMP (MCUmgr), so \(operation) does not "
                + "apply to it. 'dfu info' shows its state; 'dfu flash' updates it with a Nordic DFU package. Nothing was sent."
        case .inImage(let image, let failure):
            return "\(image): \(failure)"
        }
    }
}
