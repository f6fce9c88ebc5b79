import ArgumentParsing
import DFUCore
import ExitCodes

/// `dfu image erase [SLOT] --device DEVICE`: erases a slot, as `mcumgr image erase` does.
struct ImageEraseCommand: SMPOperationCommand {
    static let name = "image erase"
    static let abstract = "Erase an image slot (by default the one uploads go to)."
    static let discussion = """
        Erases a slot (SMP image erase) and prints the image list after it. Without SLOT the \
        device picks the slot an upload goes to (slot 1, the application's secondary). Slots are \
        numbered as the device numbers them across images: image N's primary is 2N, its \
        secondary 2N + 1 (slot 3 is an nRF5340's network core upload slot). The device refuses a \
        slot in use (the running image, the one set to boot next, or the one it would go back \
        to); it also ends any upload in progress, so an interrupted 'dfu flash' starts over. The device erases before \
        it answers, which can take tens of seconds on external flash.

        \(devicesParagraph())

        Examples:
          dfu image erase --device C2:11:40:55:7A:01
          dfu image erase 3 --device name:my-nrf5340 --json

        \(exitStatuses())
        """

    @Argument(valueName: "SLOT", help: "The slot to erase, 0-255, numbered across images (default: the device's choice, slot 1).")
    var slot: Int?

    var operation = SMPOperationOptions()

    func validate() throws(UsageError) {
        try operation.validate()
        if let slot, !(0 ... 255).contains(slot) { throw UsageError("SLOT must be a slot number from 0 to 255") }
    }

    func run(_ console: Console) async throws(DFUError) -> ExitStatus {
        let slot = slot.map { UInt64($0) }
        return try await perform(console, { device async throws(DFUError) in try await device.erase(slot: slot) }, text: { state in
            (["OK: erased " + (slot.map { "slot \($0)" } ?? "the device's default slot")]
                + ImageSlotsOutput.lines(state)).joined(separator: "\n")
        }, fields: { [JSONField("slot", slot.map { .int(Int($0)) } ?? .null), JSONField("slots", ImageSlotsOutput.json($0))] })
    }
}
