import DFUCore
import Transport

/// Which buttonless DFU service the simulated application runs (nordic-secure-dfu.md §1.2):
/// without bonds (`ble_dfu_unbonded.c`, 8EC90003: set-name, the bootloader at the address + 1), or
/// with bonds (`ble_dfu_bonded.c`, 8EC90004: only for a bonded central, no set-name, the bootloader
/// built with `NRF_DFU_BLE_REQUIRES_BONDS` keeps the address).
public enum NordicButtonlessVariant: Sendable, Hashable {
    case withoutBonds
    /// `centralBonded`: whether the central counts as bonded (a memory link has no pairing, so the
    /// sim is told); a central that is not gets "not bonded" (07).
    case withBonds(centralBonded: Bool)

    public var characteristic: CharacteristicID {
        switch self {
        case .withoutBonds: return NordicDFUService.buttonlessWithoutBonds
        case .withBonds: return NordicDFUService.buttonlessWithBonds
        }
    }

    /// Whether the bootloader keeps the application's address.
    public var keepsAddress: Bool {
        if case .withBonds = self { return true }
        return false
    }
}
