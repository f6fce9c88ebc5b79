import ArgumentParsing
import DFUCore
import ExitCodes
import Transport

/// `dfu image confirm [HASH] --device DEVICE`: confirms the running image (no HASH, as `mcumgr
/// image confirm`), or makes the image with HASH permanent.
struct ImageConfirmCommand: SMPOperationCommand {
    static let name = "image confirm"
    static let abstract = "Confirm the running image, or make an uploaded one permanent."
    static let discussion = """
        Without HASH, confirms the image the device runs (SMP image state write, confirm true), \
        as 'mcumgr image confirm' does: an image booted for test ('dfu image test', 'dfu flash \
        --mode test-only') stays for good, without its file. With the HASH of the running image, \
        the same; with the HASH of an image that does not run, it boots at the next reset for \
        good: no test, no way back. Prints the image list after the change.

        \(devicesParagraph())

        Examples:
          dfu image confirm --device C2:11:40:55:7A:01
          dfu image confirm "$HASH" --device udp:192.0.2.7:1337 --json

        \(exitStatuses())
        """

    @Argument(valueName: "HASH", help: "The SHA256 hash of the image to confirm, 64 hex digits, as 'dfu image list' shows it (default: the running image).")
    var hash: ImageHash?

    var operation = SMPOperationOptions()

    func run(_ console: Console) async throws(DFUError) -> ExitStatus {
        let hash = hash?.bytes
        return try await perform(console, { device async throws(DFUError) in try await device.confirm(hash: hash) }, text: { state in
            (["OK: " + Self.summary(state, hash: hash)] + ImageSlotsOutput.lines(state)).joined(separator: "\n")
        }, fields: { [JSONField("hash", hash.map { .string(hexString($0)) } ?? .null),
                      JSONField("slots", ImageSlotsOutput.json($0))] })
    }

    /// What the confirmation did, from the list the device answered with.
    static func summary(_ state: ImageStateResponse, hash: [UInt8]?) -> String {
        let slot: ImageSlotState?
        if let hash {
            slot = state.images.first { $0.hash == hash }
        } else {
            slot = state.images.first { $0.active && ($0.image ?? 0) == 0 }
        }
        guard let slot else { return "confirmed" }
        if slot.active { return "\(ImageSlotsOutput.name(slot)) runs and is confirmed: it stays at the next reset" }
        return "\(ImageSlotsOutput.name(slot)) is permanent: it boots at the next reset, for good"
    }
}
