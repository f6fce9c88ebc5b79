import Transport

/// SMP's GATT layout (smp-mcuboot.md §1), defined once: the engine checks it on every new link,
/// `dfu scan` and the BlueZ rediscovery filter look for the service, UDP dresses itself in it.
public enum SMPGATT: GATTLayout {
    case layout

    /// Zephyr's SMP service, `8D53DC1D-1DB7-4CD3-868B-8A527460AA84`.
    public static let service = ServiceID(BluetoothUUID(high: 0x8D53_DC1D_1DB7_4CD3, low: 0x868B_8A52_7460_AA84))
    /// Its one characteristic, `DA2E7828-FBCE-4E01-AE9E-261174997C48`: requests as Write Commands,
    /// responses as notifications.
    public static let characteristic = CharacteristicID(BluetoothUUID(high: 0xDA2E_7828_FBCE_4E01, low: 0xAE9E_2611_7499_7C48))
    /// What the SMP characteristic must allow.
    public static let properties: CharacteristicProperties = [.writeWithoutResponse, .notify]

    func problem(in services: [GATTService]) -> String? {
        guard services.contains(where: { $0.id == Self.service }) else {
            return "it has no SMP service (\(Self.service)); it does not run MCUmgr over Bluetooth, or its firmware lacks the SMP transport"
        }
        guard let found = StandardGATT.find(Self.characteristic, in: Self.service, of: services) else {
            return "its SMP service lacks the SMP characteristic (\(Self.characteristic))"
        }
        let missing = Self.properties.subtracting(found.properties)
        guard missing.isEmpty else {
            return "its SMP characteristic does not allow \(missing); MCUmgr needs write without response and notify"
        }
        return nil
    }

    var missingHint: String { "Check that the device runs firmware with MCUmgr (SMP) enabled." }

    func missingAfterReboot(_ problem: String) -> String {
        "it came back without SMP: \(problem). The new image does not run MCUmgr; MCUboot reverts a test image on the next reset."
    }
}
