import Transport

/// The GATT layouts of the two images. The vendor base UUID is 8EC9xxxx-F315-4F60-9FB8-838830DAEA50
/// (nrf_dfu_ble.c `ble_dfu_init`; ble_dfu.h `BLE_NORDIC_VENDOR_BASE_UUID`).
public enum SDKGATT {
    /// `BLE_DFU_SERVICE_UUID` 0xFE59, in both images.
    public static let dfuService = ServiceID(short: 0xFE59)
    /// Bootloader Control Point 0x0001: write (with authorisation) + notify.
    public static let controlPoint = vendor(0x0001)
    /// Bootloader Packet 0x0002: write without response only (nrf_dfu_ble.c `dfu_pkt_char_add`).
    public static let packet = vendor(0x0002)
    /// Application buttonless characteristic without bonds 0x0003: write + indicate
    /// (ble_dfu_unbonded.c `ble_dfu_buttonless_char_add`).
    public static let buttonless = vendor(0x0003)
    public static let batteryService = ServiceID(short: 0x180F)
    public static let batteryLevel = CharacteristicID(short: 0x2A19)
    public static let deviceInformationService = ServiceID(short: 0x180A)
    public static let firmwareRevision = CharacteristicID(short: 0x2A26)

    /// `BLE_GATT_ATT_MTU_DEFAULT`: the `max_len` of the Control Point and of the buttonless
    /// characteristic; a longer write is refused by the SoftDevice.
    static let controlPointMaximumLength = 23
    /// `BLE_GATT_STATUS_ATTERR_CPS_CCCD_CONFIG_ERROR` (0x01FD) on air.
    static let cccdImproperlyConfigured = ATTError(code: 0xFD)

    static func vendor(_ short: UInt16) -> CharacteristicID {
        CharacteristicID(BluetoothUUID(high: 0x8EC9_0000_F315_4F60 | UInt64(short) << 32, low: 0x9FB8_8388_30DA_EA50))
    }

    static let bootloaderServices = [
        GATTService(dfuService, characteristics: [
            GATTCharacteristic(controlPoint, properties: [.write, .notify]),
            GATTCharacteristic(packet, properties: [.writeWithoutResponse]),
        ]),
    ]

    static let applicationServices = [
        GATTService(dfuService, characteristics: [GATTCharacteristic(buttonless, properties: [.write, .indicate])]),
        GATTService(batteryService, characteristics: [GATTCharacteristic(batteryLevel, properties: [.read])]),
        GATTService(deviceInformationService, characteristics: [
            GATTCharacteristic(firmwareRevision, properties: [.read]),
        ]),
    ]
}
