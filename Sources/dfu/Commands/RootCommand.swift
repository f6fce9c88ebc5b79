import ArgumentParsing

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

    static var subcommands: [any DFUCommand.Type] {
        [VerifyCommand.self, ScanCommand.self, InfoCommand.self, FlashCommand.self,
         ImageListCommand.self, ImageTestCommand.self, ImageConfirmCommand.self, ImageEraseCommand.self,
         ResetCommand.self, EchoCommand.self,
         BatchCommand.self, ResumeCommand.self,
         PairCommand.self,
         UnpairCommand.self,
         SimCommand.self]
    }

    /// Words that gather commands under them (`dfu image list`).
    static let groups = [
        CommandGroup(name: "image", abstract: "List, test, confirm or erase a device's image slots (SMP)."),
    ]

    static func subcommand(named name: String) -> (any DFUCommand.Type)? {
        subcommands.first { $0.name == name }
    }

    static func group(named name: String) -> CommandGroup? {
        groups.first { $0.name == name }
    }

    /// What `dfu --help` lists: each command, a group once (where its first member is).
    static var topLevel: [(name: String, abstract: String)] {
        var entries: [(name: String, abstract: String)] = []
        for command in subcommands {
            guard let group = groups.first(where: { $0.contains(command) }) else {
                entries.append((command.name, command.abstract))
                continue
            }
            if !entries.contains(where: { $0.name == group.name }) { entries.append((group.name, group.abstract)) }
        }
        return entries
    }

    static var help: String {
        let commands = topLevel + [(name: "help", abstract: helpAbstract)]
        return HelpFormatter.rootHelp(toolName: name, abstract: abstract, commands: commands, footer: footer)
    }
}
