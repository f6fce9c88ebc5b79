import Transport

/// What the fleet run measured. Rates are image bytes per second.
///
/// Aggregate goodput is the image bytes all devices streamed (each from its first reply, after its
/// erase, to its last) over the wall time from the first device's first reply to the last
/// device's last reply. The capacity is the adapter's (`MemoryAdapter.capacity`: one connection
/// with the whole radio) in image bytes for the chunks sent, which is what `RadioCeiling` gives
/// for one link on the fleet's profile: each device's `radioCeiling`, combined over the devices'
/// bytes (Σ bytes / Σ bytes / ceiling).
struct FleetMeasurement: Sendable, Encodable {
    struct Device: Sendable, Encodable {
        let goodput: Double
        /// Its goodput over an equal share of the capacity (capacity / devices).
        let fairShareRatio: Double
        let streamedBytes: Int
        let transferSeconds: Double
        let eraseWaitSeconds: Double
        let resentBytes: Int
    }

    let profile: String
    let link: String
    let summary: String
    let devices: Int
    let aggregateGoodput: Double
    let capacity: Double
    let ratio: Double
    let target: Double
    let wallSeconds: Double
    let streamedBytes: Int
    /// (fastest − slowest) / mean of the devices' goodput.
    let fairnessSpread: Double
    let perDevice: [Device]

    var metTarget: Bool { ratio >= target }

    init(fleet: FleetProfile, transfers: [TransferRun.Timed]) {
        profile = fleet.name
        link = fleet.bench.linkText
        summary = fleet.bench.summary
        devices = transfers.count
        let runs = transfers.map(\.measurement)
        streamedBytes = runs.map(\.streamedBytes).reduce(0, +)
        let airSeconds = runs.map { $0.radioCeiling > 0 ? Double($0.streamedBytes) / $0.radioCeiling : 0 }.reduce(0, +)
        capacity = airSeconds > 0 ? Double(streamedBytes) / airSeconds : 0
        if let first = transfers.map(\.firstReply).min(), let last = transfers.map(\.lastReply).max() {
            wallSeconds = (last - first).seconds
        } else {
            wallSeconds = 0
        }
        aggregateGoodput = wallSeconds > 0 ? Double(streamedBytes) / wallSeconds : 0
        ratio = capacity > 0 ? aggregateGoodput / capacity : 0
        target = FleetProfile.target
        let share = devices > 0 ? capacity / Double(devices) : 0
        perDevice = runs.map {
            Device(goodput: $0.goodput, fairShareRatio: share > 0 ? $0.goodput / share : 0, streamedBytes: $0.streamedBytes,
                   transferSeconds: $0.transferSeconds, eraseWaitSeconds: $0.eraseWaitSeconds, resentBytes: $0.resentBytes)
        }
        let rates = runs.map(\.goodput)
        let mean = rates.isEmpty ? 0 : rates.reduce(0, +) / Double(rates.count)
        fairnessSpread = mean > 0 ? ((rates.max() ?? 0) - (rates.min() ?? 0)) / mean : 0
    }
}
