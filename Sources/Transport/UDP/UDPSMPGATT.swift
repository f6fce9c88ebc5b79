/// The GATT face a `UDPLink` shows: the SMP service with its one characteristic (smp-mcuboot.md §1),
/// so the SMP layer above drives UDP exactly as it drives Bluetooth. Transport knows no firmware;
/// these are only the two UUIDs the SMP transport is reached by.
public enum UDPSMPGATT {
    /// `8D53DC1D-1DB7-4CD3-868B-8A527460AA84`.
    public static let service = ServiceID(BluetoothUUID(high: 0x8D53_DC1D_1DB7_4CD3, low: 0x868B_8A52_7460_AA84))
    /// `DA2E7828-FBCE-4E01-AE9E-261174997C48`: requests are written to it, responses arrive as its
    /// notifications.
    public static let characteristic = CharacteristicID(BluetoothUUID(high: 0xDA2E_7828_FBCE_4E01,
                                                                      low: 0xAE9E_2611_7499_7C48))
    /// Write without response and notify, as Zephyr declares it; no read, no write request.
    public static let properties: CharacteristicProperties = [.writeWithoutResponse, .notify]

    /// The one service a `UDPLink` reports.
    public static let services = [
        GATTService(service, characteristics: [GATTCharacteristic(characteristic, properties: properties)]),
    ]
}
