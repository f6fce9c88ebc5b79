/// Who answered an image list, as far as its shape tells: a Zephyr application always lists its
/// running slot `active` and adds `splitStatus` unless built with a frugal list
/// (img_mgmt_state.c, `img_mgmt_state_read`); MCUboot's serial recovery lists only valid images,
/// with no `splitStatus` and no flags unless `MCUBOOT_SERIAL_IMG_GRP_IMAGE_STATE`
/// (boot_serial.c, `bs_list`).
enum ImageLister: Sendable, Equatable {
    /// A Zephyr application: `splitStatus` is there.
    case application
    /// MCUboot's serial recovery: nothing is listed active.
    case serialRecovery
    /// Either (a frugal application, or a recovery built with image state).
    case either
}

extension ImageStateResponse {
    var lister: ImageLister {
        if splitStatus != nil { return .application }
        return images.contains(where: \.active) ? .either : .serialRecovery
    }
}
