import Transport

/// After a serial-recovery upload, before the reset: MCUboot lists a slot only when its image
/// validates (boot_serial.c, `bs_list`: header, hash and signature against the bootloader's key),
/// so the primary slot listed with the image's hash (or, built without
/// `BOOT_SERIAL_IMG_GRP_HASH`, with its version) is the bootloader's own word that it will boot it.
/// An image it does not list would leave the device with nothing to boot: the run stops there,
/// with the device still in recovery, instead of resetting into a slot that fails validation.
struct RecoveryPrimarySlotCheck: Sendable {
    let image: PreparedImage
    let imageIndex: UInt64
    let device: String

    /// How the bootloader vouched for the image.
    enum Evidence: Sendable, Equatable {
        /// Slot 0 lists the image's SHA256 TLV.
        case hash
        /// Slot 0 lists the image's version and no hash (the bootloader lists none).
        case version
    }

    func evidence(in state: ImageStateResponse) throws(DFUError) -> Evidence {
        let primary = state.slot(0, image: imageIndex)
        let which = imageIndex == 0 ? "its primary slot" : "the primary slot of image \(imageIndex)"
        guard let primary else {
            throw .deviceRejected("\(device)'s MCUboot took the upload but lists no valid image in \(which): it did not "
                                  + "validate \(image.version) (signed with a key the bootloader does not have, or built "
                                  + "for another slot layout). The device stays in serial recovery; nothing was reset.")
        }
        if !primary.hash.isEmpty {
            guard primary.hash == image.slotHash || primary.hash == image.installedHash else {
                throw .deviceRejected("\(device)'s MCUboot lists another image in \(which) after the upload (version "
                                      + "\(primary.version), hash \(hexString(primary.hash).prefix(16))…): the upload did not land "
                                      + "there. Is the device in MCUboot's serial recovery? Nothing was reset.")
            }
            return .hash
        }
        guard primary.imageVersion == image.version else {
            throw .deviceRejected("\(device)'s MCUboot lists version \(primary.version) in \(which) after the upload, "
                                  + "not \(image.version): the upload did not land there. Nothing was reset.")
        }
        return .version
    }
}
