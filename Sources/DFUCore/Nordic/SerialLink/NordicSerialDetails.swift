/// What an nRF5 SDK bootloader tells about itself over UART or USB besides the objects, which
/// `dfu info` shows: the MTU it reported at connect (and so the data per Write Object), the DFU
/// protocol version, the chip (Hardware Version) and the images it holds (Firmware Version of
/// image 0, 1, … until one answers "no image"). Each request only reads (`on_protocol_version_request`,
/// `on_hw_version_request`, `on_fw_version_request` in `nrf_dfu_req_handler.c`; pc-nrfutil sends
/// none of them). A bootloader built without them refuses them (`NRF_DFU_PROTOCOL_VERSION_MSG`,
/// `NRF_DFU_PROTOCOL_FW_VERSION_MSG`); what it refuses or leaves unanswered is nil, not a failure.
public struct NordicSerialDetails: Sendable, Equatable {
    /// The largest SLIP frame the bootloader takes (Get MTU): 131 over UART, 2051 over USB.
    public var mtu: Int
    /// Object bytes per Write Object, from the MTU (`NordicSerialWriteSize`).
    public var writeSize: Int
    public var protocolVersion: UInt8?
    public var hardware: NordicHardwareVersion?
    /// The images in the bootloader's order (bootloader, SoftDevice if any, application), up to
    /// the first that answers "no image"; empty when it refuses the question.
    public var firmware: [NordicFirmwareVersion]

    public init(mtu: Int, writeSize: Int, protocolVersion: UInt8? = nil, hardware: NordicHardwareVersion? = nil,
                firmware: [NordicFirmwareVersion] = []) {
        self.mtu = mtu
        self.writeSize = writeSize
        self.protocolVersion = protocolVersion
        self.hardware = hardware
        self.firmware = firmware
    }

    /// More images than an nRF5 bootloader numbers (bootloader, SoftDevice, application): a
    /// device that never says "no image" is not asked forever.
    static let maximumImages: UInt8 = 8

    /// Asks `link`'s bootloader, each question waiting up to `timeout`. A question left
    /// unanswered ends the reading (the line or the bootloader has gone quiet; a late answer must
    /// not be taken for the next question's); `log` says what was refused or unanswered.
    static func read(on link: NordicSerialLink, timeout: Duration,
                     log: @Sendable (String) -> Void) async -> NordicSerialDetails {
        var details = NordicSerialDetails(mtu: Int(link.mtu), writeSize: link.payload)
        switch await link.query(.protocolVersion, timeout: timeout) {
        case .answered(.protocolVersion(let version)): details.protocolVersion = version
        case .answered(let other): log("Protocol Version: \(other)")
        case .silent, .gone:
            log("no answer to Protocol Version")
            return details
        }
        switch await link.query(.hardwareVersion, timeout: timeout) {
        case .answered(.hardwareVersion(let version)): details.hardware = version
        case .answered(let other): log("Hardware Version: \(other)")
        case .silent, .gone:
            log("no answer to Hardware Version")
            return details
        }
        for image in 0 ..< maximumImages {
            switch await link.query(.firmwareVersion(image: image), timeout: timeout) {
            case .answered(.firmwareVersion(let version)):
                if version.type == .none { return details }
                details.firmware.append(version)
            case .answered(let other):
                log("Firmware Version of image \(image): \(other)")
                return details
            case .silent, .gone:
                log("no answer to Firmware Version of image \(image)")
                return details
            }
        }
        return details
    }
}
