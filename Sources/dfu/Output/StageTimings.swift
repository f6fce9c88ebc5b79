import DFUCore

/// How long each stage of an update took, for `--verbose`, in the order they ran. Each row is one
/// stage and no two rows hold the same wait, so the rows add up to at most the whole run: a wait
/// the user asks about that lies inside a stage (the first reply of the upload, which is the
/// device erasing its slot) is a note on that stage's row, and the reboot is the reconnect stage.
struct StageTimings: Sendable {
    private(set) var entries: [(label: String, duration: Duration, note: String?)] = []

    /// `note`: what part of the stage's time went to (`of which first reply 0.08 s`).
    mutating func record(_ stage: UpdateStage, _ duration: Duration, note: String? = nil) {
        entries.append((Self.label(stage), duration, note))
    }

    /// `connect   0.84 s`, one row per stage with the durations in one column; nil when empty.
    var rows: [String]? {
        guard !entries.isEmpty else { return nil }
        var table = AlignedTable()
        for entry in entries {
            table.add(entry.label, HumanUnits.duration(entry.duration) + (entry.note.map { ", " + $0 } ?? ""))
        }
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
        // From the reset to the link back: the device's boot, MCUboot's swap included.
        case .reconnect: return "reboot, reconnect"
        case .confirmVersion: return "version check"
        }
    }
}
