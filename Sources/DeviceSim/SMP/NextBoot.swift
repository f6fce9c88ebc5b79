/// The application's view of the trailer (Zephyr img_mgmt_state.c `img_mgmt_get_next_boot_slot`):
/// which slot boots next and whether that boot is normal, a test or a revert. The active slot is
/// always 0 in swap mode. Image-state flags, the free-slot check and the rules for test/confirm are
/// all written in these terms, as in Zephyr, so they can be compared line by line.
struct NextBoot: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// No swap, or a permanent one (Zephyr reports PERM as "normal" to the other slot).
        case normal
        case test
        case revert
    }

    static let activeSlot = 0

    let slot: Int
    let kind: Kind

    init(_ swapType: MCUbootSwapType) {
        switch swapType {
        case .none: (slot, kind) = (Self.activeSlot, .normal)
        case .permanent: (slot, kind) = (1, .normal)
        case .test: (slot, kind) = (1, .test)
        case .revert: (slot, kind) = (1, .revert)
        }
    }

    /// `img_mgmt_slot_in_use`: the active slot, the slot a revert would go back to, and a slot
    /// pending for test or for good may not be erased or uploaded to.
    func isInUse(_ slot: Int) -> Bool {
        if slot == self.slot && kind == .revert { return true }
        if (slot == self.slot && kind == .test) || (Self.activeSlot != self.slot && kind == .normal) { return true }
        return slot == Self.activeSlot
    }

    /// The flags `img_mgmt_state_read` reports for `slot`.
    func flags(for slot: Int) -> (pending: Bool, confirmed: Bool, active: Bool, permanent: Bool) {
        if slot == Self.activeSlot {
            return (false, kind != .revert, true, false)
        }
        guard self.slot != Self.activeSlot else { return (false, false, false, false) }
        switch kind {
        case .normal: return (true, false, false, true)
        case .revert: return (false, true, false, false)
        case .test: return (true, false, false, false)
        }
    }
}
