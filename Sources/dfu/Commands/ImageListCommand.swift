import ArgumentParsing
import DFUCore
import ExitCodes

/// `dfu image list --device DEVICE`: the device's image slots (image state read), as `mcumgr image
/// list` shows them. Changes nothing on the device.
struct ImageListCommand: SMPOperationCommand {
    static let name = "image list"
    static let abstract = "List a device's image slots: versions, hashes and flags."
    static let discussion = """
        Connects as 'dfu flash' does and reads the image list (SMP image state): for each image \
        number (several on an nRF5340: 1 is the network core) and slot (0 primary, 1 secondary), \
        the version, the flags the device sets (active: running; confirmed; pending: boots at the \
        next reset; permanent: for good, not for test; bootable) and the slot's SHA256 hash, which \
        'dfu image test' and 'dfu image confirm' take. An empty slot is shown as such. Nothing on \
        the device changes.

        \(devicesParagraph())

        Examples:
          dfu image list --device C2:11:40:55:7A:01
          dfu image list --device udp:192.0.2.7:1337 --json
          dfu image list --device sim:images=2

        \(exitStatuses())
        """

    var operation = SMPOperationOptions()

    func run(_ console: Console) async throws(DFUError) -> ExitStatus {
        try await perform(console, { device async throws(DFUError) in try await device.listImages() },
                          text: { ImageSlotsOutput.lines($0).joined(separator: "\n") },
                          fields: { [JSONField("slots", ImageSlotsOutput.json($0))] })
    }
}
