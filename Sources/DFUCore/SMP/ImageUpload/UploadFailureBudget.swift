/// How often an upload failed to get past each offset, against
/// `ImageUploadConfiguration.maxFailuresPerOffset`. Counts are never reset, so a device that keeps
/// sending the upload back cannot loop forever (which offset a failure counts against is the
/// core's decision: see `ImageUploadCore`).
struct UploadFailureBudget: Sendable {
    /// What failed: a deadline passed, or the device sent the upload back (rewind, restart).
    enum Kind: Sendable { case timeout, retry }

    /// Failures allowed at one offset; the last of them ends the upload.
    let perOffset: Int
    private var counts: [UInt64: Int] = [:]

    init(perOffset: Int) { self.perOffset = perOffset }

    /// Counts one failure of `kind` at `offset`: nil while attempts remain, else the error that
    /// ends the upload.
    mutating func spend(at offset: UInt64, _ kind: Kind) -> ImageUploadError? {
        let count = (counts[offset] ?? 0) + 1
        counts[offset] = count
        guard count >= perOffset else { return nil }
        switch kind {
        case .timeout: return .timeout(offset: offset, attempts: count)
        case .retry: return .retriesExhausted(offset: offset, attempts: count)
        }
    }
}
