import DFUCore

/// A plan's rows made into jobs: each device's names, each file read once for its facts (SHA-256,
/// protocol: `UpdateFileFacts`), and what each device's journal says of an earlier run of the same update.
enum BatchJobs {
    static func make(_ rows: [BatchRow], fullAddresses: Bool, journal: JournalStore?) -> [BatchJob] {
        var files: [String: UpdateFileFacts?] = [:]
        return rows.map { row in
            let spec = try? DeviceSpec(reading: row.device)
            let written = try? DeviceSpec(reading: row.writtenDevice)
            if files[row.image] == nil { files[row.image] = .some(describe(row.image)) }
            let file = files[row.image] ?? nil
            let identity = spec?.description ?? row.device
            return BatchJob(row: row, name: written?.displayName(fullAddresses: fullAddresses) ?? row.writtenDevice,
                            fullName: written?.description ?? row.writtenDevice, identity: identity, file: file,
                            earlier: file.flatMap { earlierRun(of: identity, sha256: $0.sha256, journal: journal) })
        }
    }

    /// What the device's journal says when an earlier run finished this same update; nil otherwise.
    static func earlierRun(of identity: String, sha256: String, journal: JournalStore?) -> BatchJob.EarlierRun? {
        guard let earlier = journal?.journal(for: identity).journal, earlier.status == .done,
              earlier.isSameUpdate(device: identity, imageSHA256: sha256) else { return nil }
        return BatchJob.EarlierRun(versionAfter: earlier.versionAfter)
    }

    /// The file's facts, the protocol the registry's strongest claim gives it.
    static func describe(_ path: String) -> UpdateFileFacts? {
        guard let bytes = try? FileReader.readAll(path: path) else { return nil }
        return UpdateFileFacts(of: bytes)
    }
}
