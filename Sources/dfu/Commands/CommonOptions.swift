/// Flags every command shares. Later: `--adapter`, connection and transfer timeouts.
struct CommonOptions: ParsableArguments {
    @Flag(help: "Print the result as one JSON object on one line of stdout instead of text.")
    var json = false

    @Flag(short: "v", help: "Log each step on stderr (never key material or image bytes).")
    var verbose = false
}
