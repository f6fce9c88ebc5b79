/// One slot of the image list as a message names it: `1.1.0+0 (image 0, slot 1)`.
struct SMPSlotReference: Sendable {
    let image: UInt64
    let slot: UInt64
    let version: String
    let hash: [UInt8]
    let active: Bool

    init(_ state: ImageSlotState) {
        image = state.image ?? 0
        slot = state.slot
        version = state.imageVersion?.description ?? state.version
        hash = state.hash
        active = state.active
    }

    var name: String { "\(version) (image \(image), slot \(slot))" }
}
