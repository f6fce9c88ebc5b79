import DFUCore

/// How long each part of an update took, for `--verbose`: the engine's stage durations, plus two
/// the user asks about that are not stages of their own (the wait for the first chunk, which is
/// the device erasing its slot, and the reboot). Kept in the order they were measured.
struct StageTimings: Sendable {
    private(set) var entries: [(label: String, duration: Duration)] = []

    mutating func record(_ stage: UpdateStage, _ duration: Duration) {
        record(Self.label(stage), duration)
    }

    mutating func record(_ label: String, _ duration: Duration) {
        entries.append((label, duration))
    }

    /// `connect   0.84 s`, one row per entry with the durations in one column; nil when empty.
    var rows: [String]? {
        guard !entries.isEmpty else { return nil }
        var table = AlignedTable()
        for entry in entries { table.add(entry.label, HumanUnits.duration(entry.duration)) }
        return table.rendered.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The words `--verbose` uses for a stage; the JSON events use `UpdateStage.rawValue` instead.
    static func label(_ stage: UpdateStage) -> String {
        switch stage {
        case .verifyImage: return "image check"
        case .connect: return "connect"
        // GATT discovery and the reads that follow it (image state, parameters, battery).
        case .readDeviceState: return "discovery"
        case .checkPreconditions: return "preconditions"
        case .transfer: return "transfer"
        case .activate: return "activate"
        case .reconnect: return "reconnect"
        case .confirmVersion: return "version check"
        }
    }
}
