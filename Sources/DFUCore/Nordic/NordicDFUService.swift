import Transport

/// The GATT layout of Nordic Secure DFU (nordic-secure-dfu.md §1), defined once for the whole
/// project: the bootloader's service with its Control Point and Packet characteristics, and the
/// two buttonless characteristics an application offers in the same service.
public enum NordicDFUService {
    /// 16-bit `0xFE59` (SIG-assigned to Nordic), advertised by the bootloader and buttonless apps.
    public static let service = ServiceID(short: 0xFE59)
    /// DFU Control Point `8EC90001-F315-4F60-9FB8-838830DAEA50`: Write Request + Notify.
    public static let controlPoint = characteristic(0x0001)
    /// DFU Packet `8EC90002-…`: Write Without Response.
    public static let packet = characteristic(0x0002)
    /// Buttonless DFU without bond sharing `8EC90003-…`: Write + Indicate.
    public static let buttonlessWithoutBonds = characteristic(0x0003)
    /// Buttonless DFU with bond sharing `8EC90004-…`: Write + Indicate.
    public static let buttonlessWithBonds = characteristic(0x0004)

    /// What the Control Point must allow: requests with response, answers as notifications.
    public static let controlPointProperties: CharacteristicProperties = [.write, .notify]
    /// What the Packet characteristic must allow.
    public static let packetProperties: CharacteristicProperties = [.writeWithoutResponse]

    /// Nordic's vendor base `8EC9xxxx-F315-4F60-9FB8-838830DAEA50` with `short` in bits 96–111.
    private static func characteristic(_ short: UInt16) -> CharacteristicID {
        CharacteristicID(BluetoothUUID(high: 0x8EC9_0000_F315_4F60 | UInt64(short) << 32, low: 0x9FB8_8388_30DA_EA50))
    }
}
