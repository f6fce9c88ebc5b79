import ArgumentParsing
import DFUCore
import Transport

/// The waits of `dfu flash` a user may need to lengthen: a slow or busy radio (connect), a device
/// that erases or swaps slowly (first chunk, reboot), a congested link (chunk). Defaults are
/// `UpdateOptions.Deadlines`, which follow the reference clients (smp-mcuboot.md §3). Each is named
/// after what it waits for, as the engine's messages name them ("allow more time with
/// --connect-timeout"); there is no catch-all `--timeout`.
///
/// Each is nil unless given, so `dfu resume` and `dfu batch` can tell a wait the user set (kept in
/// the journal's request; a wait given again on the resuming command line wins) from a default.
struct FlashTimeouts: ParsableArguments, Equatable {
    @Option(valueName: "SECONDS", help: "Seconds to connect, and to reconnect after a lost link. (default: \(Self.text(UpdateOptions.Deadlines().connect)))")
    var connectTimeout: Double?

    @Option(valueName: "SECONDS", help: "Seconds from the reset until the device answers again (MCUboot swaps meanwhile). (default: \(Self.text(UpdateOptions.Deadlines().reboot)))")
    var rebootTimeout: Double?

    @Option(valueName: "SECONDS", help: "Seconds to wait for the device to acknowledge one upload chunk. (default: \(Self.text(UpdateOptions.Deadlines().chunk)))")
    var chunkTimeout: Double?

    @Option(valueName: "SECONDS", help: "Seconds to wait for the first chunk's answer (the device erases first). (default: 40 per started MiB of the image)")
    var firstChunkTimeout: Double?

    /// The longest wait that is still a timeout and not a typo (an hour).
    static let maximum = FlashRequest.Timeouts.maximumSeconds

    init() {}

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.requested == rhs.requested }

    /// Called from the command's `validate()`.
    func validate() throws(UsageError) {
        for (name, value) in given {
            guard value > 0, value <= Self.maximum else {
                throw UsageError("\(name) must be more than 0 and at most \(Int(Self.maximum)) seconds")
            }
        }
    }

    /// The waits given, by option name, in a fixed order.
    var given: [(String, Double)] {
        [("--connect-timeout", connectTimeout), ("--reboot-timeout", rebootTimeout), ("--chunk-timeout", chunkTimeout),
         ("--first-chunk-timeout", firstChunkTimeout)].compactMap { name, value in value.map { (name, $0) } }
    }

    /// The waits given, for a request. Valid after `validate()`.
    var requested: FlashRequest.Timeouts {
        FlashRequest.Timeouts(connect: connectTimeout, reboot: rebootTimeout, chunk: chunkTimeout,
                              firstChunk: firstChunkTimeout)
    }

    /// The engine's deadlines from these options. Valid after `validate()`.
    var deadlines: UpdateOptions.Deadlines { requested.deadlines }

    static func duration(_ seconds: Double) -> Duration {
        FlashRequest.Timeouts.duration(seconds)
    }

    /// As help shows any other default seconds (`20.0`).
    private static func text(_ duration: Duration) -> String {
        duration.seconds.helpDescription
    }
}
