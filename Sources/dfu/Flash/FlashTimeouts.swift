import DFUCore

/// The waits of `dfu flash` a user may need to lengthen: a slow or busy radio (connect), a device
/// that erases or swaps slowly (first chunk, reboot), a congested link (chunk). Defaults are
/// `UpdateOptions.Deadlines`, which follow the reference clients (smp-mcuboot.md §3). Each is named
/// after what it waits for, as the engine's messages name them ("allow more time with
/// --connect-timeout"); there is no catch-all `--timeout`.
struct FlashTimeouts: ParsableArguments {
    @Option(valueName: "SECONDS", help: "Seconds to connect, and to reconnect after a lost link.")
    var connectTimeout = Self.seconds(UpdateOptions.Deadlines().connect)

    @Option(valueName: "SECONDS", help: "Seconds from the reset until the device answers again (MCUboot swaps meanwhile).")
    var rebootTimeout = Self.seconds(UpdateOptions.Deadlines().reboot)

    @Option(valueName: "SECONDS", help: "Seconds to wait for the device to acknowledge one upload chunk.")
    var chunkTimeout = Self.seconds(UpdateOptions.Deadlines().chunk)

    @Option(valueName: "SECONDS", help: "Seconds to wait for the first chunk's answer (the device erases first). (default: 40 per started MiB of the image)")
    var firstChunkTimeout: Double?

    /// The longest wait that is still a timeout and not a typo (an hour).
    static let maximum = 3600.0

    init() {}

    /// Called from the command's `validate()`.
    func validate() throws(UsageError) {
        let named: [(String, Double)] = [("--connect-timeout", connectTimeout), ("--reboot-timeout", rebootTimeout),
                                          ("--chunk-timeout", chunkTimeout)] + (firstChunkTimeout.map { [("--first-chunk-timeout", $0)] } ?? [])
        for (name, value) in named {
            guard value > 0, value <= Self.maximum else {
                throw UsageError("\(name) must be more than 0 and at most \(Int(Self.maximum)) seconds")
            }
        }
    }

    /// The engine's deadlines from these options. Valid after `validate()`.
    var deadlines: UpdateOptions.Deadlines {
        var deadlines = UpdateOptions.Deadlines()
        deadlines.connect = Self.duration(connectTimeout)
        deadlines.reboot = Self.duration(rebootTimeout)
        deadlines.chunk = Self.duration(chunkTimeout)
        if let firstChunkTimeout {
            // The user's deadline is taken as given, whatever the image's size.
            deadlines.firstChunk = Self.duration(firstChunkTimeout)
            deadlines.firstChunkPerMiB = nil
        }
        // The last chunk may wait for the device's image check; never less than any other chunk.
        deadlines.lastChunk = max(deadlines.lastChunk, deadlines.chunk)
        return deadlines
    }

    private static func duration(_ seconds: Double) -> Duration {
        .milliseconds(Int((min(max(seconds, 0), Self.maximum) * 1000).rounded()))
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}
