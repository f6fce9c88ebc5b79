import DFUCore
import Foundation

/// How `dfu flash` keeps its journal (`UpdateJournal`, in `JournalStore`): which store, the journal a
/// run starts with (its request, paths made absolute, and the facts of the file it read), and the
/// words printed about it.
enum FlashJournal {
    /// `$XDG_STATE_HOME/dfu`, else `~/.local/state/dfu`; nil when neither can be named.
    static func standardStore() -> JournalStore? {
        JournalStore.defaultDirectory(environment: ProcessInfo.processInfo.environment).map(JournalStore.init)
    }

    /// The journal `store` holds for a request's device, read once per run (a bad file is set
    /// aside on reading).
    struct Previous {
        var journal: UpdateJournal?
        var setAside: JournalStore.SetAside?

        /// The bootloader name of the device's unfinished update, if one named it.
        var earlierBootloaderName: String? {
            guard let journal, journal.status == .unfinished else { return nil }
            return journal.bootloaderName
        }

        /// What the device ran before the device's unfinished update began, when that update is
        /// of the same file (`sha256`): a device now running the file's version was updated by it.
        func versionBefore(ofFile sha256: String?) -> String? {
            guard let journal, journal.status == .unfinished, let sha256, journal.imageSHA256 == sha256 else { return nil }
            return journal.versionBefore
        }
    }

    static func previous(for request: FlashRequest, in store: JournalStore) -> Previous {
        let found = store.journal(for: request.device)
        return Previous(journal: found.journal, setAside: found.setAside)
    }

    /// The recorder for one run of `request` with the update file's `bytes`, and warnings to show
    /// (a journal file that had to be set aside). Nil recorder when the file cannot be hashed.
    static func recorder(for request: FlashRequest, image bytes: [UInt8], store: JournalStore,
                         previous: Previous) -> (recorder: JournalRecorder?, warnings: [String]) {
        guard let file = UpdateFileFacts(of: bytes) else { return (nil, []) }
        // Paths absolute: a resumed run may start in another directory.
        let journal = UpdateJournal(request: request.resolvingPaths(in: FileManager.default.currentDirectoryPath),
                                    file: file, now: unixTime())
        let warnings = previous.setAside.map { [setAsideWarning($0)] } ?? []
        return (JournalRecorder(journal, store: store, previous: previous.journal), warnings)
    }

    static func unixTime() -> Int { Int(Date().timeIntervalSince1970) }

    /// What the journal records of how a run ended.
    static func outcome(_ result: UpdateResult) -> UpdateJournal.Outcome {
        switch result {
        case .success(let version): return UpdateJournal.Outcome(result: .succeeded, message: "the device runs \(version)")
        case .failure(let error): return .failed(error)
        }
    }

    static func warning(_ failure: JournalError) -> String {
        "\(failure); the update goes on, but 'dfu resume' will not know of it"
    }

    static func setAsideWarning(_ setAside: JournalStore.SetAside) -> String {
        let moved = setAside.movedTo.map { "moved it to \($0)" } ?? "could not move it away"
        return "the update journal \(setAside.file) cannot be used (\(setAside.reason)); \(moved) and started a new one"
    }

    /// The end of the interrupted line: how to carry on. Spelled with the device only where that
    /// shows no full Bluetooth address the user did not ask to see. `tookNothing`: the run kept no
    /// journal because the device had not taken any of the update yet (nothing to resume).
    static func resumeHint(for request: FlashRequest, fullAddresses: Bool, journaled: Bool,
                           tookNothing: Bool = false) -> String {
        if tookNothing { return "; the device had taken none of the update: run the same command again" }
        guard journaled, let spec = try? request.deviceSpec else { return "; run the same command again to resume" }
        if case .address = spec, !fullAddresses { return "; 'dfu resume' finishes the update" }
        return "; 'dfu resume --device \(spec)' finishes the update"
    }

    static func absolutePath(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
