import Foundation
import Transport

/// The directory of update journals, one file per device (`UpdateJournal`): `$XDG_STATE_HOME/dfu/`,
/// by default `~/.local/state/dfu/` (the XDG Base Directory spec's place for state that should
/// survive a restart but is not worth backing up). Files are 0600 in a 0700 directory and are
/// replaced whole (`JournalFile.replace`), so a reader sees the old journal or the new one, never
/// half of one, even after a crash or a `kill -9`.
///
/// A file that does not parse, or is not a journal of this format, is never trusted: reading it moves
/// it aside (`NAME.set-aside-SECONDS`) and reports it, so one bad file cannot stop the others. A
/// journal of the first format (`LegacyJournal`) is read and converted; the next write replaces it
/// with today's.
public struct JournalStore: Sendable {
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// `$XDG_STATE_HOME/dfu` when that is an absolute path (the spec says to ignore a relative one),
    /// else `$HOME/.local/state/dfu`; nil without either.
    public static func defaultDirectory(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/dfu" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.local/state/dfu" }
        return nil
    }

    /// A file the store would not read, and what is wrong with it.
    public struct SetAside: Sendable, Equatable {
        public var file: String
        public var movedTo: String?
        public var reason: String
    }

    /// The file that holds `device`'s journal: a readable form of the device (`AA-BB-…`,
    /// `udp-127.0.0.1-1337`) and a hash of the exact text, so two devices that read alike never share one.
    public func path(for device: String) -> String {
        directory + "/" + Self.fileName(for: device)
    }

    static func fileName(for device: String) -> String {
        let readable = String(device.unicodeScalars.prefix(48).map { scalar -> Character in
            switch scalar {
            case "a" ... "z", "A" ... "Z", "0" ... "9", ".", "_": return Character(scalar)
            default: return "-"
            }
        })
        return readable + "." + hexDigits(fnv1a(Array(device.utf8)), width: 16) + ".json"
    }

    /// The journal of `device`; nil when there is none. A bad file is set aside and reported.
    public func journal(for device: String) -> (journal: UpdateJournal?, setAside: SetAside?) {
        let path = path(for: device)
        switch read(path) {
        case .none: return (nil, nil)
        case .journal(let journal) where journal.device == device: return (journal, nil)
        case .journal: return (nil, setAside(path, reason: "it names another device than its file name says"))
        case .bad(let reason): return (nil, setAside(path, reason: reason))
        }
    }

    /// Every journal in the directory, ordered by device; bad files are set aside and reported.
    public func all() -> (journals: [UpdateJournal], setAside: [SetAside]) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return ([], []) }
        var journals: [UpdateJournal] = []
        var setAsides: [SetAside] = []
        for name in names.sorted() where name.hasSuffix(".json") && !name.hasPrefix(".") {
            let path = directory + "/" + name
            switch read(path) {
            case .none: continue
            case .journal(let journal) where Self.fileName(for: journal.device) == name: journals.append(journal)
            case .journal: setAsides.append(setAside(path, reason: "it names another device than its file name says"))
            case .bad(let reason): setAsides.append(setAside(path, reason: reason))
            }
        }
        return (journals.sorted { $0.device < $1.device }, setAsides)
    }

    /// Writes `journal` in place of the device's previous one, atomically.
    public func save(_ journal: UpdateJournal) throws(JournalError) {
        try JournalFile.makeDirectory(directory)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let bytes: [UInt8]
        do { bytes = Array(try encoder.encode(journal)) + [0x0A] } catch {
            throw .cannotWrite(path: path(for: journal.device), reason: "it cannot be encoded: \(error)")
        }
        try JournalFile.replace(path(for: journal.device), with: bytes)
    }

    /// Forgets `device`'s journal; no error when it has none.
    public func remove(device: String) throws(JournalError) {
        try JournalFile.remove(path(for: device))
    }

    enum ReadResult {
        case none
        case journal(UpdateJournal)
        case bad(String)
    }

    private func read(_ path: String) -> ReadResult {
        switch JournalFile.load(path) {
        case .missing: return .none
        case .unreadable(let reason): return .bad(reason)
        case .bytes(let bytes): return Self.decode(bytes)
        }
    }

    /// A journal file's bytes as a journal, or why they are not one. Apart from the file system
    /// so that a fuzzer can feed it any bytes (Fuzz/JournalReader.swift).
    static func decode(_ bytes: [UInt8]) -> ReadResult {
        let notAJournal = ReadResult.bad("it is not a dfu journal (not the JSON one holds)")
        guard let format = try? JSONDecoder().decode(Format.self, from: Data(bytes)).format else { return notAJournal }
        switch format {
        case UpdateJournal.currentFormat:
            guard let journal = try? JSONDecoder().decode(UpdateJournal.self, from: Data(bytes)) else { return notAJournal }
            return .journal(journal)
        case LegacyJournal.format:
            // An older dfu's journal: converted, so that its unfinished update can be resumed.
            guard let legacy = try? JSONDecoder().decode(LegacyJournal.self, from: Data(bytes)) else { return notAJournal }
            do throws(LegacyJournal.Unreadable) {
                return .journal(try legacy.converted())
            } catch {
                return .bad("it is a journal of an older dfu ('\(format)') that cannot be read: \(error.reason)")
            }
        default:
            return .bad("it is a journal of another format ('\(format)'; this dfu writes '\(UpdateJournal.currentFormat)')")
        }
    }

    /// The one field every journal format has.
    private struct Format: Decodable {
        var format: String
    }

    private func setAside(_ path: String, reason: String) -> SetAside {
        let target = path + ".set-aside-\(Int(Date().timeIntervalSince1970))"
        let moved = rename(path, target) == 0
        return SetAside(file: path, movedTo: moved ? target : nil, reason: reason)
    }
}
