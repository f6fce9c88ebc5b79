/// One upload over a serial line: the image's bytes over the transfer stage's time, against the
/// line's ceiling for the framing (baud / 10 bytes a second, times the framing's share of packet
/// bytes on the wire).
struct SerialMeasurement: Sendable, Encodable {
    let baud: Int
    let framing: String
    let bytes: Int
    let transferSeconds: Double
    let goodput: Double
    let ceiling: Double
    /// Requests in flight, as the engine reported at connect.
    let window: Int

    var ratio: Double { ceiling > 0 ? goodput / ceiling : 0 }
}

/// The serial part's runs at one baud rate, and their median.
struct SerialSummary: Sendable, Encodable {
    let baud: Int
    let image: String
    let runs: [SerialMeasurement]
    /// Goodput as a share of the line's ceiling the serial part aims at.
    static let target = 0.90

    var medianRatio: Double {
        let sorted = runs.map(\.ratio).sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    var medianGoodput: Double {
        let sorted = runs.map(\.goodput).sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    var metTarget: Bool { medianRatio >= Self.target }
}
