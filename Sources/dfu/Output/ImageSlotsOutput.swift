import DFUCore
import Transport

/// The image slots as `dfu image list` (and the other image commands, after their change) show
/// them: per image number, each slot's version (`1.2.3+45`), its flags as MCUmgr names them, and
/// its full hash, the one `dfu image test` and `confirm` take.
///
///     image 0 slot 0: 1.0.0+0  active confirmed bootable
///       hash 8d6b90949b26d804567e1c7a273066596bf7320574da611f903d6d6365cb44fc
///     image 0 slot 1: empty
///
/// The JSON `slots` array is `dfu info`'s, element for element.
enum ImageSlotsOutput {
    static func lines(_ state: ImageStateResponse) -> [String] {
        var indexes: [UInt64] = []
        for slot in state.images where !indexes.contains(slot.image ?? 0) { indexes.append(slot.image ?? 0) }
        if indexes.isEmpty { return ["no image slots listed (the device holds no valid image)"] }
        var lines: [String] = []
        for index in indexes {
            // MCUboot has two slots per image; Zephyr lists only those holding an image.
            for number in UInt64(0) ... 1 {
                guard let slot = state.slot(number, image: index) else {
                    lines.append("image \(index) slot \(number): empty")
                    continue
                }
                lines.append("image \(index) slot \(number): \(version(slot))  \(flags(slot))")
                lines.append("  hash " + hexString(slot.hash))
            }
        }
        return lines
    }

    static func json(_ state: ImageStateResponse) -> JSONValue {
        .array(state.images.map { InfoOutput.slotJSON($0, core: nil) })
    }

    /// `1.1.0+0` (`ImageVersion`'s one format); what the device sent when it is not a version.
    static func version(_ slot: ImageSlotState) -> String {
        slot.imageVersion?.description ?? TerminalText.sanitized(slot.version)
    }

    /// The flags that are set, in MCUmgr's words and `mcumgr image list`'s order.
    static func flags(_ slot: ImageSlotState) -> String {
        let set = [(slot.active, "active"), (slot.confirmed, "confirmed"), (slot.pending, "pending"),
                   (slot.permanent, "permanent"), (slot.bootable, "bootable")].filter(\.0).map(\.1)
        return set.isEmpty ? "no flags" : set.joined(separator: " ")
    }

    /// `1.1.0+0 (image 0, slot 1)`.
    static func name(_ slot: ImageSlotState) -> String {
        "\(version(slot)) (image \(slot.image ?? 0), slot \(slot.slot))"
    }
}
