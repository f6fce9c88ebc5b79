import Transport

/// What one Nordic transfer measured. The interval runs from the client's write of the first
/// data object's Create to its receipt of the last notification (the final Execute's answer);
/// the init packet before it is not counted. Rates in firmware bytes per second.
struct NordicRunMeasurement: Sendable, Encodable {
    /// Measured and modelled time of one kind of burst (`NordicCeiling`), summed over the run.
    struct BurstTime: Sendable, Encodable {
        var count = 0
        var measuredSeconds = 0.0
        var modelSeconds = 0.0
    }

    let goodput: Double
    let ceiling: Double
    /// The radio alone: the packets' size at the write-command rate (`writeCommandCeiling`), as the
    /// SMP table's radio column; what the protocol's round trips stand between.
    let radioCeiling: Double
    let ratio: Double
    let firmwareBytes: Int
    let transferSeconds: Double
    let modelSeconds: Double
    let objects: Int
    let packets: Int
    let controlPointRequests: Int
    /// Notifications that answered no request: PRN receipts.
    let receipts: Int
    let packetSize: Int
    let bursts: [String: BurstTime]
    /// The whole connection's radio counters (set-up and init packet included).
    let connectionEvents: Int
    let centralPDUs: Int

    init(profile: NordicBenchProfile, firmwareBytes: Int, exchanges: [NordicExchange],
         radio: MemoryLinkStatistics) throws(BenchError) {
        guard let first = exchanges.firstIndex(where: \.isCreateData),
              let last = exchanges.lastIndex(where: \.isNotification), last > first else {
            throw .setup("no data object was created and answered")
        }
        let data = Array(exchanges[first ... last])
        let model = NordicCeiling(link: profile.link)
        var bursts: [String: BurstTime] = [:]
        var modelSeconds = 0.0
        for burst in model.bursts(data) {
            modelSeconds += burst.modelSeconds
            bursts[burst.kind, default: BurstTime()].count += 1
            bursts[burst.kind]?.measuredSeconds += burst.measuredSeconds
            bursts[burst.kind]?.modelSeconds += burst.modelSeconds
        }
        var packets = 0, requests = 0, notifications = 0, packetSize = 0, objects = 0
        for exchange in data {
            switch exchange.kind {
            case .packet(let size): packets += 1; packetSize = max(packetSize, size)
            case .request: requests += 1
            case .notification: notifications += 1
            }
            if exchange.isCreateData { objects += 1 }
        }
        self.firmwareBytes = firmwareBytes
        transferSeconds = (data[data.count - 1].at - data[0].at).seconds
        self.modelSeconds = modelSeconds
        goodput = transferSeconds > 0 ? Double(firmwareBytes) / transferSeconds : 0
        ceiling = modelSeconds > 0 ? Double(firmwareBytes) / modelSeconds : 0
        ratio = ceiling > 0 ? goodput / ceiling : 0
        radioCeiling = packetSize > 0 ? profile.link.writeCommandCeiling(valueSize: packetSize) : 0
        self.objects = objects
        self.packets = packets
        controlPointRequests = requests
        receipts = max(0, notifications - requests)
        self.packetSize = packetSize
        self.bursts = bursts
        connectionEvents = radio.connectionEvents
        centralPDUs = radio.centralPDUs
    }
}
