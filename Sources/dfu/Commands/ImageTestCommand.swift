import ArgumentParsing
import DFUCore
import ExitCodes
import Transport

/// `dfu image test HASH --device DEVICE`: marks an uploaded image for a test boot at the next
/// reset, as `mcumgr image test` does.
struct ImageTestCommand: SMPOperationCommand {
    static let name = "image test"
    static let abstract = "Mark an uploaded image to boot once, for test, at the next reset."
    static let discussion = """
        Finds the slot whose hash is HASH in the image list, then marks it for test (SMP image \
        state write, confirm false): MCUboot boots it at the next reset ('dfu reset'), and goes \
        back to the previous image on the reset after that unless the new one is confirmed \
        ('dfu image confirm' while it runs). Prints the image list after the change, which shows \
        the slot pending. A hash no slot holds is refused before anything is written, with the \
        hashes the device has.

        \(devicesParagraph())

        Examples:
          HASH=$(dfu image list --device name:sensor-12 --json | jq -r .slots[1].sha256)
          dfu image test "$HASH" --device name:sensor-12
          dfu image test "$HASH" --device udp:192.0.2.7:1337 --json

        \(exitStatuses())
        """

    @Argument(valueName: "HASH", help: "The slot's SHA256 hash, 64 hex digits, as 'dfu image list' shows it.")
    var hash: ImageHash

    var operation = SMPOperationOptions()

    func run(_ console: Console) async throws(DFUError) -> ExitStatus {
        let hash = hash.bytes
        return try await perform(console, { device async throws(DFUError) in try await device.test(hash: hash) }, text: { state in
            let marked = state.images.first { $0.hash == hash }.map(ImageSlotsOutput.name) ?? "the image"
            return (["OK: \(marked) is marked for test: it boots at the next reset, once, unless confirmed then"]
                    + ImageSlotsOutput.lines(state)).joined(separator: "\n")
        }, fields: { [JSONField("hash", .string(hexString(hash))), JSONField("slots", ImageSlotsOutput.json($0))] })
    }
}
