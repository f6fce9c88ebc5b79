import DFUCore
import ExitCodes

/// A plan's rows made into jobs: each device's names, each file read once for its SHA-256 and
/// protocol, and the devices an earlier run already finished with the same file set apart.
enum BatchJobs {
    static func make(_ rows: [BatchRow], fullAddresses: Bool) -> [BatchJob] {
        var files: [String: (sha256: String, protocolName: String)?] = [:]
        return rows.map { row in
            let spec = try? DeviceSpec(parsing: row.device)
            if files[row.image] == nil { files[row.image] = .some(describe(row.image)) }
            let file = files[row.image] ?? nil
            return BatchJob(row: row, name: spec?.displayName(fullAddresses: fullAddresses) ?? row.device,
                            identity: spec?.description ?? row.device, protocolName: file?.protocolName,
                            imageSHA256: file?.sha256)
        }
    }

    /// The jobs to run, and reports for those whose journal says the same update is done.
    static func skippingDone(_ jobs: [BatchJob], journal: JournalStore?) -> (todo: [BatchJob], done: [BatchDeviceReport]) {
        guard let journal else { return (jobs, []) }
        var todo: [BatchJob] = []
        var done: [BatchDeviceReport] = []
        for job in jobs {
            if let sha256 = job.imageSHA256, let earlier = journal.journal(for: job.identity).journal,
               earlier.status == .done, earlier.isSameUpdate(device: job.identity, imageSHA256: sha256) {
                let version = earlier.versionAfter ?? earlier.imageVersion ?? "?"
                done.append(job.report(.skipped, status: .success, stage: "done",
                                       error: "already done by an earlier run (\(version))", versionAfter: earlier.versionAfter))
            } else {
                todo.append(job)
            }
        }
        return (todo, done)
    }

    /// The widest device name among the jobs, for aligned lines.
    static func nameWidth(_ reports: [BatchDeviceReport], _ queue: BatchJobQueue) -> Int {
        max(reports.map { TerminalText.sanitized($0.device).count }.max() ?? 0, queue.pendingNameWidth)
    }

    private static func describe(_ path: String) -> (sha256: String, protocolName: String)? {
        guard let bytes = try? FileReader.readAll(path: path), let digest = try? SHA256.hash(bytes) else { return nil }
        let kind: UpdateProtocolName = UpdateFileKind(of: bytes) == .nordicPackage ? .nordic : .smp
        return (hexString(digest), kind.rawValue)
    }
}
