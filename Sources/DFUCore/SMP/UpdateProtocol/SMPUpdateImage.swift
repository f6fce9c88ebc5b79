/// One MCUboot image of an SMP update, for one image index: what is sent there, and what the
/// device holds for that index.
struct SMPUpdateImage: Sendable {
    /// A direct-XIP build's image linked to run from one slot of its image index.
    struct Variant: Sendable {
        /// 0: the primary slot, 1: the secondary (within the image index, as img_mgmt numbers them).
        let slot: Int
        let image: PreparedImage
    }

    let name: UpdateImageName
    /// What goes to the device: the only image, or (direct-XIP) the variant for the slot the device
    /// does not run from, once `readState` has seen which one that is.
    var image: PreparedImage
    /// Direct-XIP: every variant the file has for this image index; empty otherwise.
    let variants: [Variant]
    /// What the device holds for this image index (the read-device-state stage decides it).
    var plan: UpdatePlan = .upload
    /// What the index ran before the update (its active slot), to tell a rollback after the reboot.
    var runningBefore: ImageSlotState?

    init(name: UpdateImageName, image: PreparedImage) {
        self.name = name
        self.image = image
        variants = []
    }

    init(name: UpdateImageName, variants: [Variant]) throws(DFUError) {
        guard let first = variants.first else {
            throw .internalError("\(name) has no direct-XIP variant")
        }
        self.name = name
        image = first.image
        self.variants = variants
    }

    var index: UInt64 { UInt64(name.index) }
    var isDirectXIP: Bool { !variants.isEmpty }
    /// The device already runs this image: nothing to send or mark.
    var isRunning: Bool { if case .alreadyRunning = plan { true } else { false } }
}
