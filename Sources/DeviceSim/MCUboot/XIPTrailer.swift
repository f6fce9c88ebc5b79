/// One slot's trailer as direct-XIP reads it (bootutil `boot_read_swap_state`): the magic, and the
/// image_ok and copy_done flags. Zephyr's img_mgmt names the four states they make
/// (img_mgmt_state.c `read_directxip_state`), and MCUboot's revert mechanism acts on them
/// (design.md "Revert mechanism in direct-xip and ram-load mode").
struct XIPTrailer: Sendable, Hashable {
    var magic = false
    var imageOK = false
    /// Set by MCUboot the first time it selects the image ("selected to run").
    var copyDone = false

    enum State: Sendable, Hashable {
        /// No magic: MCUboot with revert erases such an image rather than boot it.
        case unset
        /// Marked for one test boot, not yet booted.
        case once
        /// Booted once without confirming itself: the next boot erases it and goes back.
        case revert
        /// Confirmed (or made permanent).
        case forever
    }

    var state: State {
        guard magic else { return .unset }
        if imageOK { return .forever }
        return copyDone ? .revert : .once
    }

    /// A factory-programmed image (`imgtool sign --pad --confirm`): magic and image_ok.
    static let confirmed = XIPTrailer(magic: true, imageOK: true, copyDone: false)
}
