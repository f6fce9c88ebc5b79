import Transport

/// The advertised services that tell which update protocol a device offers, for finding devices
/// before connecting (`dfu scan`, a BlueZ connector's discovery filter). After connecting the
/// engine checks the protocol's whole layout (`SMPGATT`, `NordicGATT`).
public enum DFUServiceIDs {
    /// Zephyr's SMP service (MCUmgr over BLE), `8D53DC1D-1DB7-4CD3-868B-8A527460AA84`.
    public static let smp: ServiceID = SMPGATT.service
    /// Nordic Secure DFU, 16-bit `0xFE59` (SIG-assigned to Nordic): its bootloader and the
    /// buttonless-DFU applications advertise it.
    public static let nordicSecureDFU = NordicDFUService.service
    /// Every service dfu can update a device through.
    public static let updatable: [ServiceID] = [smp, nordicSecureDFU]
}
