/// An update file that passed the verify-image stage.
protocol PreparedUpdate: Sendable {
    var version: ImageVersion { get }
    var size: Int { get }
    var summary: ImageSummary { get }
    /// Set when the file was accepted without its signature checked.
    var signatureWarning: String? { get }
}
