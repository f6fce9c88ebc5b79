import Transport

/// The advertised services that tell which update protocol a device offers, for finding devices
/// before connecting (`dfu scan`, a BlueZ connector's rediscovery filter). After connecting the
/// engine checks the whole SMP layout (`UpdateGATT`).
public enum DFUServiceIDs {
    /// Zephyr's SMP service (MCUmgr over BLE), `8D53DC1D-1DB7-4CD3-868B-8A527460AA84`.
    public static let smp: ServiceID = SMPGATT.service
    /// Nordic Secure DFU, 16-bit `0xFE59` (SIG-assigned to Nordic): its bootloader and the
    /// buttonless-DFU applications advertise it. dfu recognises it but cannot update it yet.
    public static let nordicSecureDFU = NordicDFUService.service
}
