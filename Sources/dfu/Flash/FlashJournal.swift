import DFUCore
import ExitCodes
import Foundation

/// How `dfu flash` keeps its journal (`UpdateJournal`, in `JournalStore`): which store, the journal a
/// run starts with (the file by absolute path and SHA-256, the arguments that restart it), and the
/// words printed about it.
enum FlashJournal {
    /// `$XDG_STATE_HOME/dfu`, else `~/.local/state/dfu`; nil when neither can be named.
    static func standardStore() -> JournalStore? {
        JournalStore.defaultDirectory(environment: ProcessInfo.processInfo.environment).map(JournalStore.init)
    }

    /// The journal `store` holds for `command`'s device, read once per run (a bad file is set aside
    /// on reading); nil when the device cannot be named.
    struct Previous {
        var journal: UpdateJournal?
        var setAside: JournalStore.SetAside?

        /// The bootloader name of the device's unfinished update, if one named it.
        var earlierBootloaderName: String? {
            guard let journal, journal.status == .unfinished else { return nil }
            return journal.bootloaderName
        }
    }

    static func previous(for command: FlashCommand, in store: JournalStore) -> Previous? {
        guard let spec = try? command.spec() else { return nil }
        let found = store.journal(for: spec.description)
        return Previous(journal: found.journal, setAside: found.setAside)
    }

    /// The recorder for one run of `command` with the update file's `bytes`, and warnings to show
    /// (a journal file that had to be set aside). Nil recorder when the file cannot be hashed.
    static func recorder(for command: FlashCommand, image bytes: [UInt8], store: JournalStore,
                         previous: Previous) -> (recorder: JournalRecorder?, warnings: [String]) {
        guard let spec = try? command.spec(), let sha256 = try? SHA256.hash(bytes) else { return (nil, []) }
        let device = spec.description
        let protocolName: UpdateProtocolName = UpdateFileKind(of: bytes) == .nordicPackage ? .nordic : .smp
        let journal = UpdateJournal(
            device: device, protocolName: protocolName.rawValue, imagePath: absolutePath(command.image),
            imageSHA256: hexString(sha256), imageSize: bytes.count, imageVersion: nil,
            mode: FlashCommand.effectiveMode(command.mode, image: command.imageIndex).rawValue,
            arguments: arguments(of: command), now: unixTime())
        let warnings = previous.setAside.map { [setAsideWarning($0)] } ?? []
        return (JournalRecorder(journal, store: store, previous: previous.journal), warnings)
    }

    /// The `dfu flash` arguments that run `command`'s update again: everything that decides what
    /// is sent and how, paths made absolute (resume may run elsewhere). Never `--passkey` (a secret)
    /// and never output flags (`--json`, `--verbose`, `--full-addresses`: the resuming command's own).
    static func arguments(of command: FlashCommand) -> [String] {
        var words = [absolutePath(command.image), "--device", command.target.device]
        if let adapter = command.target.bluetooth.adapter { words += ["--adapter", adapter] }
        if let key = command.key { words += ["--key", absolutePath(key)] }
        if command.allowUnsigned { words.append("--allow-unsigned") }
        if let expectVersion = command.expectVersion { words += ["--expect-version", expectVersion] }
        if command.prn != 0 { words += ["--prn", String(command.prn)] }
        if let bootloaderName = command.bootloaderName { words += ["--bootloader-name", bootloaderName] }
        words += ["--mode", command.mode.rawValue]
        if let imageIndex = command.imageIndex { words += ["--image", String(imageIndex)] }
        words += ["--min-battery", String(command.minBattery)]
        if command.allowDowngrade { words.append("--allow-downgrade") }
        if command.requireNewer { words.append("--require-newer") }
        if command.allowHostBattery { words.append("--allow-host-battery") }
        if command.security.pair { words.append("--pair") }
        // --dry-run is never journaled (FlashRun keeps no journal for it).
        return words + command.timeouts.arguments
    }

    static func unixTime() -> Int { Int(Date().timeIntervalSince1970) }

    /// What the journal records of how a run ended.
    static func message(_ result: UpdateResult) -> String {
        switch result {
        case .success(let version): return "the device runs \(version)"
        case .failure(let error): return error.description
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
    static func resumeHint(for command: FlashCommand, journaled: Bool, tookNothing: Bool = false) -> String {
        if tookNothing { return "; the device had taken none of the update: run the same command again" }
        guard journaled, let spec = try? command.spec() else { return "; run the same command again to resume" }
        if case .address = spec, !command.target.bluetooth.fullAddresses { return "; 'dfu resume' finishes the update" }
        return "; 'dfu resume --device \(spec)' finishes the update"
    }

    static func absolutePath(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

}
