import DFUCore

/// Which unfinished updates a `dfu resume` is about: those of one device (`--device`), those whose
/// journal was last written more than some days ago (`--older-than`), or every one.
struct ResumeSelection {
    /// The device as journals name it (`DeviceSpec.description`).
    var device: String?
    var olderThanDays: Int?

    static let secondsPerDay = 86_400

    /// Whether `journal` is picked, at `now` (Unix seconds).
    func picks(_ journal: UpdateJournal, now: Int) -> Bool {
        if let device, journal.device != device { return false }
        if let days = olderThanDays, now - journal.updatedAt <= days * Self.secondsPerDay { return false }
        return true
    }

    /// ` for C2:11:40:55:7A:01 older than 7 days`, for "no unfinished update…"; `name` shortens
    /// the device as the line's readers see it.
    func qualifier(name: (String) -> String) -> String {
        let days = olderThanDays.map { " older than \($0) day\($0 == 1 ? "" : "s")" } ?? ""
        return (device.map { " for " + name($0) } ?? "") + days
    }
}
