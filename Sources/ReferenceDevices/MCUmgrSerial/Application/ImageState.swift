extension MCUmgrSerial {
    /// img_mgmt_state.c's view of the next boot (single image, swap modes; the running image is
    /// always slot 0, `img_mgmt_active_slot`).
    enum NextBootType: Equatable { case normal, test, revert }

    static let activeSlot = 0

    /// img_mgmt_state.c `img_mgmt_get_next_boot_slot` from `mcuboot_swap_type_multi`: none → the
    /// active slot; perm → the other slot, normal; revert → the other slot, revert; test → the
    /// other slot, test.
    static func nextBootSlot(_ flash: DeviceFlash) -> (slot: Int, type: NextBootType) {
        switch swapType(primary: flash.primary.trailer, secondary: flash.secondary.trailer) {
        case .none: return (activeSlot, .normal)
        case .perm: return (1, .normal)
        case .revert: return (1, .revert)
        case .test: return (1, .test)
        }
    }

    /// img_mgmt_state.c `img_mgmt_slot_in_use`: the slot to revert to, a slot pending for test,
    /// any slot while a permanent swap is pending (unless `ALLOW_ERASE_PENDING`), and the active
    /// slot.
    static func slotInUse(_ slot: Int, _ flash: DeviceFlash, allowErasePending: Bool) -> Bool {
        let next = nextBootSlot(flash)
        if slot == next.slot, next.type == .revert { return true }
        if (slot == next.slot && next.type == .test) || (activeSlot != next.slot && next.type == .normal) {
            if !allowErasePending { return true }
        }
        return slot == activeSlot
    }
}

extension MCUmgrSerial.ZephyrSMPServer {
    typealias ImageError = MCUmgrSerial.ImageError
    typealias DeviceFlash = MCUmgrSerial.DeviceFlash

    /// img_mgmt_state.c `img_mgmt_state_read`: both slots in order, each only if
    /// `img_mgmt_read_info` succeeds; then "splitStatus": 0 (not a frugal list).
    func imageStateRead(flash: DeviceFlash) -> HandlerOutcome {
        .ok(imageList(flash))
    }

    func imageList(_ flash: DeviceFlash) -> [CBORPair] {
        let next = MCUmgrSerial.nextBootSlot(flash)
        let active = MCUmgrSerial.activeSlot
        let activeFlags = (active: true, confirmed: next.type != .revert, pending: false, permanent: false)
        var otherFlags = (active: false, confirmed: false, pending: false, permanent: false)
        if next.slot != active {
            switch next.type {
            case .normal: otherFlags = (false, false, true, true)
            case .revert: otherFlags = (false, true, false, false)
            case .test: otherFlags = (false, false, true, false)
            }
        }
        var images: [MCUmgrSerial.CBORItem] = []
        for slot in 0..<2 {
            guard let bytes = flash[slot]?.bytes,
                  case .success(let info) = MCUmgrSerial.zephyrReadInfo(bytes, wantHash: true) else { continue }
            let flags = slot == active ? activeFlags : otherFlags
            images.append(.map([
                CBORPair("slot", .unsigned(UInt64(slot))),
                CBORPair("version", .text(info.version.description)),
                CBORPair("hash", .bytes(info.hash ?? [])),
                CBORPair("bootable", .bool(info.flags & MCUmgrSerial.ImageHeader.nonBootableFlag == 0)),
                CBORPair("pending", .bool(flags.pending)),
                CBORPair("confirmed", .bool(flags.confirmed)),
                CBORPair("active", .bool(flags.active)),
                CBORPair("permanent", .bool(flags.permanent)),
            ]))
        }
        return [CBORPair("images", .array(images)), CBORPair("splitStatus", .unsigned(0))]
    }

    /// img_mgmt_state.c `img_mgmt_state_write`: "hash" picks the slot (`img_mgmt_find_by_hash`);
    /// without one only a confirm of the active slot is allowed; then
    /// `img_mgmt_set_next_boot_slot`; the answer is the new state list.
    func imageStateWrite(_ payload: ArraySlice<UInt8>, flash: inout DeviceFlash) -> HandlerOutcome {
        guard let values = MCUmgrSerial.zcborMapDecodeBulk(payload, ["hash": .bytes, "confirm": .bool]) else {
            return .failure(.invalid)
        }
        let hash = values["hash"]?.bytes ?? []
        let confirm = values["confirm"]?.bool ?? false
        let slot: Int
        if hash.isEmpty {
            guard confirm else { return .imageError(.invalidHash) }
            slot = MCUmgrSerial.activeSlot
        } else if hash.count != MCUmgrSerial.ImageTLV.hashLength {
            return .imageError(.invalidHash)
        } else {
            guard let found = findByHash(hash, flash) else { return .imageError(.hashNotFound) }
            slot = found
        }
        if let error = setNextBootSlot(slot, confirm: confirm, flash: &flash) { return .imageError(error) }
        return .ok(imageList(flash))
    }

    /// img_mgmt.c `img_mgmt_find_by_hash`.
    func findByHash(_ hash: [UInt8], _ flash: DeviceFlash) -> Int? {
        (0..<2).first { slot in
            guard let bytes = flash[slot]?.bytes,
                  case .success(let info) = MCUmgrSerial.zephyrReadInfo(bytes, wantHash: true) else { return false }
            return info.hash == hash
        }
    }

    /// img_mgmt_state.c `img_mgmt_set_next_boot_slot` (not Direct-XIP) and
    /// `img_mgmt_set_next_boot_slot_common` → `boot_set_next`.
    func setNextBootSlot(_ slot: Int, confirm: Bool, flash: inout DeviceFlash) -> ImageError? {
        let active = MCUmgrSerial.activeSlot
        let next = MCUmgrSerial.nextBootSlot(flash)
        if !confirm, slot == active { return .imageSettingTestToActiveDenied }
        switch next.type {
        case .test:
            if !confirm, slot == next.slot { return nil }
            return .imageAlreadyPending
        case .normal:
            if confirm, slot == next.slot { return nil }
            if (slot == active && active != next.slot) || (!confirm && slot != active && slot == next.slot) {
                return .imageAlreadyPending
            }
        case .revert:
            if confirm, slot == next.slot { return nil }
            if !confirm { return .imageAlreadyPending }
        }
        switch slot {
        case 0: MCUmgrSerial.bootSetNext(&flash.primary.trailer, active: slot == active, confirm: confirm)
        case 1: MCUmgrSerial.bootSetNext(&flash.secondary.trailer, active: slot == active, confirm: confirm)
        default: return .flashOpenFailed
        }
        return nil
    }
}
