/// An update file that passed the verify-image stage.
protocol PreparedUpdate: Sendable {
    var version: ImageVersion { get }
    var size: Int { get }
    var summary: ImageSummary { get }
    /// Set when the file was accepted without its signature checked.
    var signatureWarning: String? { get }
    /// The parts in the order they are sent, each activated before the next (most updates: one).
    var parts: [UpdatePart] { get }
    /// What the verify-image stage reports: one summary per image (most updates: `summary`).
    var summaries: [ImageSummary] { get }
}

extension PreparedUpdate {
    var parts: [UpdatePart] { [UpdatePart(name: "image", number: 1, count: 1, size: size)] }
    var summaries: [ImageSummary] { [summary] }
}
