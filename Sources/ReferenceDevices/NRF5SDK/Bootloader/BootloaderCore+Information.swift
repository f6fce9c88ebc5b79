/// The requests that only read (nrf_dfu_req_handler.c, the `!NRF_DFU_PROTOCOL_REDUCED` handlers).
/// Their answers carry a payload that only the serial transport sends.
extension BootloaderCore {
    /// `NRF_DFU_PROTOCOL_VERSION`.
    static let protocolVersion: UInt8 = 0x01
    /// `MBR_SIZE`: where a SoftDevice starts.
    static let mbrSize: UInt32 = 0x1000

    /// `nrf_dfu_firmware_type_t`.
    enum FirmwareImageType: UInt8 {
        case softDevice = 0x00, application = 0x01, bootloader = 0x02, unknown = 0xFF
    }

    /// `on_protocol_version_request`, `on_hw_version_request`, `on_fw_version_request`,
    /// `on_ping_request`, `on_mtu_get_request`. `NRF_DFU_PROTOCOL_VERSION_MSG` and
    /// `NRF_DFU_PROTOCOL_FW_VERSION_MSG` are 1 in every serial example's sdk_config.h.
    func information(_ request: DFURequest) -> DFUResponse {
        let payload: DFUResponse.Payload
        switch request.opCode {
        case DFUOpCode.protocolVersion: payload = .protocolVersion(Self.protocolVersion)
        case DFUOpCode.hardwareVersion: payload = .hardware(configuration.chip)
        case DFUOpCode.firmwareVersion: payload = firmwareImage(request.imageNumber)
        case DFUOpCode.ping: payload = .ping(request.pingID)
        default: payload = .mtu(request.mtuSize)
        }
        return DFUResponse(opCode: request.opCode, status: .success, payload: payload)
    }

    /// `on_fw_version_request`: image 0 is the bootloader; image 1 the SoftDevice when one is
    /// present; the next one the application when bank 0 holds a valid one; anything else unknown.
    /// A SoftDevice's "length" is `SD_SIZE_GET(MBR_SIZE)`, the address where it ends (which is where
    /// the application starts), not its size.
    private func firmwareImage(_ number: UInt8) -> DFUResponse.Payload {
        let softDevice = configuration.softDevicePresent
        var count = 1
        if softDevice { count += 1 }
        if settings.bank0.code == .validApplication { count += 1 }
        if number == 0 {
            return .firmware(type: FirmwareImageType.bootloader.rawValue, version: settings.bootloaderVersion,
                             address: configuration.bootloaderStart, length: configuration.bootloaderSize)
        }
        if number == 1 && softDevice {
            return .firmware(type: FirmwareImageType.softDevice.rawValue, version: configuration.softDeviceVersion,
                             address: Self.mbrSize, length: configuration.applicationStart)
        }
        if Int(number) < count {
            // nrf_dfu_app_start_address: bank 0 starts right after the SoftDevice (or the MBR).
            return .firmware(type: FirmwareImageType.application.rawValue, version: settings.applicationVersion,
                             address: configuration.applicationStart, length: settings.bank0.imageSize)
        }
        return .firmware(type: FirmwareImageType.unknown.rawValue, version: 0, address: 0, length: 0)
    }
}
