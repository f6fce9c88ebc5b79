/// `dfu` itself: what it is and the subcommands it lists. Adding a command means adding its type here.
enum RootCommand {
    static let name = "dfu"
    static let abstract = "Update BLE firmware: MCUboot over SMP, nRF5 Secure DFU. dfu \(DFUVersion.current)."
    static let footer = """
        Devices: Bluetooth LE devices through BlueZ, by address or name:NAME ('dfu scan' \
        lists them); the built-in virtual device (--device sim); SMP servers over UDP \
        (--device udp:HOST:PORT).

        Examples:
          dfu scan
          dfu info --device C2:11:40:55:7A:01
          dfu flash app.signed.bin --device C2:11:40:55:7A:01 --key signing-pub.pem
          dfu pair --device C2:11:40:55:7A:01 --passkey 123456
          dfu verify app.signed.bin --key signing-pub.pem
          dfu flash app.signed.bin --device sim --key signing-pub.pem
          dfu sim --serve udp:127.0.0.1:1337

        See 'dfu help <command>' or 'dfu <command> --help' for a command's options.
        """

    /// The line `help` has in the command list (it has no type of its own).
    static let helpAbstract = "Show help for dfu or for one command."

    static var subcommands: [any ParsableCommand.Type] {
        [VerifyCommand.self, ScanCommand.self, InfoCommand.self, FlashCommand.self, BatchCommand.self, ResumeCommand.self,
         PairCommand.self,
         UnpairCommand.self,
         SimCommand.self]
    }

    static func subcommand(named name: String) -> (any ParsableCommand.Type)? {
        subcommands.first { $0.name == name }
    }

    static var help: String {
        let commands = subcommands.map { (name: $0.name, abstract: $0.abstract) }
            + [(name: "help", abstract: helpAbstract)]
        return HelpFormatter.rootHelp(toolName: name, abstract: abstract, commands: commands, footer: footer)
    }
}
