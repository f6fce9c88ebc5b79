import DFUCore
import ExitCodes

/// A device whose journal says an earlier run finished this same update (same device, same file
/// content) is asked before it is skipped: the journal says what dfu did, not what the device runs
/// now (a unit that reverted a test image, was reflashed or reworked). The asking is one
/// connection and no transfer: the update's checks up to the transfer (`--dry-run`), which read
/// the device's state. Then:
///
/// - it runs the image: skipped, a success. Where the protocol's device reports the hash of the
///   image it runs (SMP), the hash is the file's (the engine's own check,
///   `UpdatePlan.alreadyRunning`). Where it does not (`ProtocolEntry.reportsRunningImageHash`; a
///   Nordic application reports only its firmware revision), the version it reports is the one
///   the earlier run left it with: that is all that can be read.
/// - it answered, but does not run it or says nothing that tells: flashed, as any other device.
/// - it could not be asked (not found, the connection or pairing failed, its state unreadable):
///   not checked, with that failure's exit status, never a success. Its journal stays as it was.
enum BatchDoneCheck {
    enum Verdict: Equatable {
        /// Skip it; the words say what was read.
        case runsIt(String)
        case flash
        case notChecked
    }

    /// `probe`: what the dry run found; `failure`: its exit status when it failed.
    static func verdict(of probe: BatchDeviceProgress, failure: ExitStatus?, protocolName: UpdateProtocolName?,
                        earlier: BatchJob.EarlierRun) -> Verdict {
        guard probe.deviceStateRead else {
            // The file, the key or a bug stopped it before the device was reached: the row's
            // problem, which the real run reports in its own words.
            guard let failure, ![.usage, .imageInvalid, .internalError].contains(failure) else { return .flash }
            return .notChecked
        }
        let version = probe.versionBefore
        if probe.dryRunPlan == .nothing {
            return .runsIt("already runs this image" + (version.map { " (\($0))" } ?? "") + ", read from the device")
        }
        if let protocolName, let entry = ProtocolRegistry.entry(named: protocolName), !entry.reportsRunningImageHash,
           let version, version == earlier.versionAfter {
            return .runsIt("runs \(version), the version an earlier run of this update left it with "
                           + "(read from the device, which over \(protocolName) reports no image hash)")
        }
        return .flash
    }

    /// The `error` of a device not checked: what the journal says, and why the device was not asked.
    static func notCheckedReason(_ earlier: BatchJob.EarlierRun, failure: String) -> String {
        "an earlier run finished this update" + (earlier.versionAfter.map { " (\($0))" } ?? "")
            + ", but the device could not be asked whether it still runs it: " + failure
    }
}
