/// What one whole update took: wall time, and each stage's duration as the engine reported it.
struct WholeUpdateMeasurement: Sendable, Encodable {
    let wallSeconds: Double
    /// Keyed by `UpdateStage` raw value (`transfer`, `activate`, `reconnect`, …).
    let stageSeconds: [String: Double]
}
