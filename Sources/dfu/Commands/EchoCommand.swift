import ArgumentParsing
import DFUCore
import ExitCodes

/// `dfu echo TEXT --device DEVICE`: the device sends TEXT back (SMP OS echo), as `mcumgr echo`:
/// whether it runs MCUmgr and answers.
struct EchoCommand: SMPOperationCommand {
    static let name = "echo"
    static let abstract = "Send text to a device and print what it echoes (is MCUmgr up?)."
    static let discussion = """
        Sends TEXT in an SMP echo request and prints the device's answer, which must be the same \
        text: a quick check that the device runs MCUmgr and answers over this link. An answer \
        with other text is the device's fault (exit 7).

        \(devicesParagraph())

        Examples:
          dfu echo hello --device C2:11:40:55:7A:01
          dfu echo hello --device udp:192.0.2.7:1337 --json

        \(exitStatuses())
        """

    @Argument(valueName: "TEXT", help: "The text to send (UTF-8).")
    var text: String

    var operation = SMPOperationOptions()

    func run(_ console: Console) async throws(DFUError) -> ExitStatus {
        let text = text
        return try await perform(console, { device async throws(DFUError) in try await device.echo(text) },
                                 text: { TerminalText.sanitized($0) }, fields: { [JSONField("text", .string($0))] })
    }
}
