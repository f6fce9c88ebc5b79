/// What the application's buttonless characteristic (without bonds) does with op code 0x02, set
/// bootloader name.
public enum ButtonlessSupport: Sendable, Hashable {
    /// SDK 14 and later with `ble_dfu_buttonless_async_svci_init()` called: the name is stored for the
    /// bootloader through the SVCI and the answer is `20 02 01` (ble_dfu_unbonded.c
    /// `ble_dfu_buttonless_on_ctrl_pt_write`, `ble_dfu_buttonless_on_sys_evt`).
    case setName
    /// SDK 13: only op code 0x01 exists; 0x02 is answered `20 02 02` (SDK 13.1 ble_dfu.c
    /// `on_ctrlpt_write`, default branch).
    case setNameNotSupported
    /// SDK 14+ without `ble_dfu_buttonless_async_svci_init()`: the SVC call into the bootloader has no
    /// handler, so a well-formed set-name faults the application and the device resets (into the
    /// application: no DFU flag is set). A bad length is still answered 05 first, as that check comes
    /// before the SVC call.
    case asyncSVCIMissing
}
