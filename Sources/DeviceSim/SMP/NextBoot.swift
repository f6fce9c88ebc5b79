/// The application's view of the trailer (Zephyr img_mgmt_state.c `img_mgmt_get_next_boot_slot`):
/// which slot boots next and whether that boot is normal, a test or a revert. The active slot is
/// always 0 in swap mode; in direct-XIP it is where the image runs. Image-state flags, the
/// free-slot check and the rules for test/confirm are all written in these terms, as in Zephyr, so
/// they can be compared line by line.
struct NextBoot: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// No swap, or a permanent one (Zephyr reports PERM as "normal" to the other slot).
        case normal
        case test
        case revert
    }

    /// The slot the image runs from.
    let active: Int
    let slot: Int
    let kind: Kind
    /// Direct-XIP and RAM-load: only the running slot is in use (img_mgmt_slot_in_use skips the
    /// pending rules for both).
    private let equalSlots: Bool

    init(_ pair: MCUbootImagePair) {
        active = pair.activeSlot
        equalSlots = pair.mode.hasEqualSlots
        switch pair.mode {
        case .usingScratch, .withoutScratch, .overwriteOnly:
            switch pair.swapType {
            case .none: (slot, kind) = (active, .normal)
            case .permanent: (slot, kind) = (1, .normal)
            case .test: (slot, kind) = (1, .test)
            case .revert: (slot, kind) = (1, .revert)
            }
        case .directXIP, .ramLoad:
            // The newer image boots next, for good.
            let other = 1 - active
            let newer = Self.isNewer(pair.image(inSlot: other), than: pair.image(inSlot: active))
            (slot, kind) = (newer ? other : active, .normal)
        case .directXIPWithRevert, .ramLoadWithRevert:
            (slot, kind) = Self.withRevert(pair)
        }
    }

    /// `img_mgmt_get_next_boot_slot` with `CONFIG_MCUBOOT_BOOTLOADER_MODE_DIRECT_XIP_WITH_REVERT`,
    /// from each slot's `read_directxip_state`.
    private static func withRevert(_ pair: MCUbootImagePair) -> (Int, Kind) {
        let active = pair.activeSlot
        let other = 1 - active
        guard pair.image(inSlot: other) != nil else { return (active, .normal) }
        let activeState = pair.trailers[active].state
        let otherState = pair.trailers[other].state
        if activeState == .revert { return (other, .revert) }
        if otherState == .unset { return (active, activeState == .once ? .test : .normal) }
        if isNewer(pair.image(inSlot: other), than: pair.image(inSlot: active)) {
            if otherState == .forever { return (other, .normal) }
            if otherState == .once { return (other, .test) }
        }
        return (active, .normal)
    }

    private static func isNewer(_ candidate: SlotImage?, than running: SlotImage?) -> Bool {
        guard let candidate, let running else { return false }
        return running.version < candidate.version
    }

    /// `img_mgmt_slot_in_use`: the active slot, the slot a revert would go back to, and a slot
    /// pending for test or for good may not be erased or uploaded to.
    func isInUse(_ slot: Int) -> Bool {
        if !equalSlots {
            if slot == self.slot && kind == .revert { return true }
            if (slot == self.slot && kind == .test) || (active != self.slot && kind == .normal) { return true }
        }
        return slot == active
    }

    /// The flags `img_mgmt_state_read` reports for `slot`.
    func flags(for slot: Int) -> (pending: Bool, confirmed: Bool, active: Bool, permanent: Bool) {
        if slot == active {
            return (false, kind != .revert, true, false)
        }
        guard self.slot != active else { return (false, false, false, false) }
        switch kind {
        case .normal: return (true, false, false, true)
        case .revert: return (false, true, false, false)
        case .test: return (true, false, false, false)
        }
    }
}
