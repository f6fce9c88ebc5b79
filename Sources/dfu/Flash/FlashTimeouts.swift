import DFUCore

/// The waits of `dfu flash` a user may need to lengthen: a slow or busy radio (connect), a device
/// that erases or swaps slowly (first chunk, reboot), a congested link (chunk). Defaults are
/// `UpdateOptions.Deadlines`, which follow the reference clients (smp-mcuboot.md §3).
struct FlashTimeouts: ParsableArguments {
    @Option(valueName: "SECONDS", help: "Seconds to connect, and to reconnect after a lost link (default: --timeout).")
    var connectTimeout: Double?

    @Option(valueName: "SECONDS", help: "Seconds from the reset until the device answers again (MCUboot swaps meanwhile).")
    var rebootTimeout = Self.seconds(UpdateOptions.Deadlines().reboot)

    @Option(valueName: "SECONDS", help: "Seconds to wait for the device to acknowledge one upload chunk.")
    var chunkTimeout = Self.seconds(UpdateOptions.Deadlines().chunk)

    @Option(valueName: "SECONDS", help: "Seconds to wait for the first chunk's answer (the device erases its slot first).")
    var firstChunkTimeout = Self.seconds(UpdateOptions.Deadlines().firstChunk)

    init() {}

    /// Called from the command's `validate()`.
    func validate() throws(UsageError) {
        let named: [(String, Double?)] = [("--connect-timeout", connectTimeout), ("--reboot-timeout", rebootTimeout),
                                          ("--chunk-timeout", chunkTimeout), ("--first-chunk-timeout", firstChunkTimeout)]
        for (name, value) in named {
            guard let value else { continue }
            guard value > 0, value <= BluetoothOptions.maximumTimeout else {
                throw UsageError("\(name) must be more than 0 and at most \(Int(BluetoothOptions.maximumTimeout)) seconds")
            }
        }
    }

    /// The engine's deadlines from these options; `connect` is `--connect-timeout`, else `fallback`.
    func deadlines(connectFallback fallback: Duration) -> UpdateOptions.Deadlines {
        var deadlines = UpdateOptions.Deadlines()
        deadlines.connect = connectTimeout.map(Self.duration) ?? fallback
        deadlines.reboot = Self.duration(rebootTimeout)
        deadlines.chunk = Self.duration(chunkTimeout)
        deadlines.firstChunk = Self.duration(firstChunkTimeout)
        // The last chunk may wait for the device's image check; never less than any other chunk.
        deadlines.lastChunk = max(deadlines.lastChunk, deadlines.chunk)
        return deadlines
    }

    private static func duration(_ seconds: Double) -> Duration {
        .milliseconds(Int((min(max(seconds, 0), BluetoothOptions.maximumTimeout) * 1000).rounded()))
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}
