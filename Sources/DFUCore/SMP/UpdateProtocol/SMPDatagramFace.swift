import Transport

extension DatagramGATTFace {
    /// SMP over UDP (Zephyr's `CONFIG_MCUMGR_TRANSPORT_UDP`) dressed as the SMP GATT service, so the
    /// engine drives UDP exactly as it drives Bluetooth (smp-mcuboot.md §1).
    public static let smp = DatagramGATTFace(service: SMPGATT.service, characteristic: SMPGATT.characteristic)
}
