import ArgumentParsing

/// What `dfu.1` says beyond the commands' own declarations, and the completion scripts' view of the
/// tool. `make install` installs the committed outputs (`docs/dfu.1`, `completions/`); a test checks
/// they are what this produces.
extension RootCommand {
    static func manual() throws(DeclarationError) -> String {
        ManPageFormatter.manual(ManPageFormatter.Page(
            toolName: name,
            version: DFUVersion.current,
            summary: "update the firmware of Bluetooth LE devices: MCUboot over SMP, nRF5 Secure DFU",
            description: """
                \(name) updates the firmware of Bluetooth Low Energy devices through BlueZ: MCUboot \
                images over SMP (Zephyr, nRF Connect SDK) and nRF5 SDK devices over Nordic Secure \
                DFU. It checks the file (format, hash and, with a key, signature) and the device \
                (battery, slot size, version) before the first byte is sent; an interrupted upload \
                resumes from the offset the device reports.

                \(footer)
                """,
            options: [
                .init(term: "-h, --help",
                      text: "Show this overview; with a command ('dfu flash --help', 'dfu help flash'), its options."),
                .init(term: "--version", text: "Print the version of \(name): '\(name) \(DFUVersion.current)'."),
            ],
            commands: try commandReferences(),
            exitStatusIntroduction: """
                The numbers are fixed; scripts may rely on them. Each command uses these, as its \
                --help ends:
                """,
            files: [
                .init(term: "$XDG_STATE_HOME/dfu/ (default ~/.local/state/dfu/)",
                      text: "The update journals, one file per device: the update that was under way, "
                          + "which 'dfu resume' reads to continue it."),
            ],
            environment: [
                .init(term: "XDG_STATE_HOME",
                      text: "The directory the update journals go in (FILES); used only when it is an absolute path."),
                .init(term: "HOME", text: "Without XDG_STATE_HOME, the journals are in $HOME/.local/state/dfu/."),
                .init(term: "DBUS_SYSTEM_BUS_ADDRESS",
                      text: "The D-Bus system bus to reach bluetoothd on, instead of the default socket."),
            ],
            seeAlso: ["bluetoothctl(1)", "bluetoothd(8)"]))
    }

    static func completionScript(for shell: CompletionScript.Shell) throws(DeclarationError) -> String {
        CompletionScript.script(for: shell, CompletionScript.Tool(
            name: name,
            commands: try commandReferences(),
            helpCommand: (name: "help", abstract: helpAbstract),
            options: [(names: ["-h", "--help"], help: "Show help."),
                      (names: ["--version"], help: "Print the version of \(name).")],
            groups: groups))
    }

    private static func commandReferences() throws(DeclarationError) -> [CommandReference] {
        var references: [CommandReference] = []
        for command in subcommands { references.append(try CommandReference(command)) }
        return references
    }
}
