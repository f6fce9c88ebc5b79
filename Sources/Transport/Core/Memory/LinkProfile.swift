/// The radio and controller a memory link models. Every value is checked when the profile is made,
/// so a `LinkProfile` is always a legal LE connection.
public struct LinkProfile: Hashable, Sendable {
    public let phy: LinkPHY
    /// 7.5 ms to 4 s in steps of 1.25 ms.
    public let connectionInterval: Duration
    /// LL data PDU payload: 27 (no Data Length Extension) to 251.
    public let llPayload: Int
    /// ATT MTU: 23 to 517.
    public let attMTU: Int
    /// The controller's cap on exchanges per connection event; nil = as many as fit.
    public let maxPacketsPerEvent: Int?
    /// How much of each interval the controller may use; nil = the whole interval.
    public let eventLength: Duration?
    /// The central controller's transmit buffers, one LL PDU each; a writer suspends when all are full.
    public let txBufferCount: Int
    /// The device's transmit buffers for notifications and responses, one LL PDU each.
    public let peripheralTXBufferCount: Int
    /// From the central's radio receiving a notification to the app seeing it (host stack, D-Bus).
    public let notificationLatency: Duration
    /// A stack's cap on a write-without-response value (BlueZ: 512, 510 toward BlueZ ≤ 5.68); nil = none.
    public let writeCap: Int?
    /// Encrypted links add a 4-byte MIC to every non-empty PDU.
    public let encrypted: Bool
    /// How long the central's host takes to report a link it did not end itself. Until then the
    /// link's ATT requests fail with 0x0E, as bluetoothd answers a write on a link going down tens
    /// of milliseconds before its disconnection signal; zero reports at once.
    public let dropReportDelay: Duration

    public init(phy: LinkPHY = .le2M, connectionInterval: Duration = .microseconds(7_500), llPayload: Int = 251,
                attMTU: Int = 498, maxPacketsPerEvent: Int? = nil, eventLength: Duration? = nil,
                txBufferCount: Int = 8, peripheralTXBufferCount: Int = 8, notificationLatency: Duration = .zero,
                writeCap: Int? = nil, encrypted: Bool = false, dropReportDelay: Duration = .zero) throws(LinkProfileError) {
        self.init(unchecked: phy, connectionInterval, llPayload, attMTU, maxPacketsPerEvent, eventLength,
                  txBufferCount, peripheralTXBufferCount, notificationLatency, writeCap, encrypted, dropReportDelay)
        try validate()
    }

    private init(unchecked phy: LinkPHY, _ connectionInterval: Duration, _ llPayload: Int, _ attMTU: Int,
                 _ maxPacketsPerEvent: Int?, _ eventLength: Duration?, _ txBufferCount: Int,
                 _ peripheralTXBufferCount: Int, _ notificationLatency: Duration, _ writeCap: Int?, _ encrypted: Bool,
                 _ dropReportDelay: Duration = .zero) {
        self.phy = phy
        self.connectionInterval = connectionInterval
        self.llPayload = llPayload
        self.attMTU = attMTU
        self.maxPacketsPerEvent = maxPacketsPerEvent
        self.eventLength = eventLength
        self.txBufferCount = txBufferCount
        self.peripheralTXBufferCount = peripheralTXBufferCount
        self.notificationLatency = notificationLatency
        self.writeCap = writeCap
        self.encrypted = encrypted
        self.dropReportDelay = dropReportDelay
    }

    /// 2M PHY, MTU 498 (a write fills two 251-byte PDUs, Android McuMgr's choice), 7.5 ms: 165.0 kB/s.
    public static let fast2M = LinkProfile(unchecked: .le2M, .microseconds(7_500), 251, 498, nil, nil, 8, 8, .zero, nil, false)

    /// 1M PHY, MTU 247 (one write per PDU), 30 ms, a common desktop default: 97.6 kB/s.
    public static let typical1M = LinkProfile(unchecked: .le1M, .milliseconds(30), 251, 247, nil, nil, 8, 8, .zero, nil, false)

    /// The largest value one write without response may carry: `min(attMTU − 3, writeCap)`.
    public var maxWriteWithoutResponse: Int { min(attMTU - 3, writeCap ?? Int.max) }

    /// The radio's ceiling for full-size writes without response, in value bytes per second.
    public var writeCommandCeiling: Double { timing.writeCommandCeiling(valueSize: maxWriteWithoutResponse) }

    /// The radio's ceiling for an endless stream of writes without response carrying `valueSize`
    /// bytes each, in value bytes per second. The formula and its sources are in `RadioTiming`.
    public func writeCommandCeiling(valueSize: Int) -> Double { timing.writeCommandCeiling(valueSize: valueSize) }

    var timing: RadioTiming {
        RadioTiming(phy: phy, llPayload: llPayload, encrypted: encrypted, connectionInterval: connectionInterval,
                    eventLength: eventLength ?? connectionInterval, maxPacketsPerEvent: maxPacketsPerEvent)
    }

    /// The parameters a link with this profile reports.
    func parameters(generation: LinkGeneration, peer: PeerIdentity) -> LinkParameters {
        LinkParameters(generation: generation, peer: peer, attMTU: attMTU, maxWriteWithoutResponse: maxWriteWithoutResponse,
                       phy: phy, connectionInterval: connectionInterval, llPayload: llPayload,
                       writeCommandCeiling: writeCommandCeiling)
    }

    private func validate() throws(LinkProfileError) {
        let intervalSteps = connectionInterval / .microseconds(1_250)
        guard connectionInterval >= .microseconds(7_500), connectionInterval <= .seconds(4),
              intervalSteps == intervalSteps.rounded() else {
            throw LinkProfileError(field: "interval", value: "\(connectionInterval)",
                                   expected: "7.5 ms to 4 s in steps of 1.25 ms")
        }
        guard (27...251).contains(llPayload) else {
            throw LinkProfileError(field: "llPayload", value: "\(llPayload)", expected: "27 to 251 bytes")
        }
        guard (23...517).contains(attMTU) else {
            throw LinkProfileError(field: "mtu", value: "\(attMTU)", expected: "23 to 517 bytes")
        }
        if let cap = maxPacketsPerEvent, cap < 1 {
            throw LinkProfileError(field: "maxPacketsPerEvent", value: "\(cap)", expected: "at least 1, or none")
        }
        if let length = eventLength, length <= .zero || length > connectionInterval {
            throw LinkProfileError(field: "eventLength", value: "\(length)",
                                   expected: "more than 0 and at most the connection interval")
        }
        guard txBufferCount >= 1 else {
            throw LinkProfileError(field: "txBufferCount", value: "\(txBufferCount)", expected: "at least 1")
        }
        guard peripheralTXBufferCount >= 1 else {
            throw LinkProfileError(field: "peripheralTXBufferCount", value: "\(peripheralTXBufferCount)",
                                   expected: "at least 1")
        }
        guard notificationLatency >= .zero else {
            throw LinkProfileError(field: "notificationLatency", value: "\(notificationLatency)", expected: "0 or more")
        }
        if let cap = writeCap, cap < 1 {
            throw LinkProfileError(field: "writeCap", value: "\(cap)", expected: "at least 1 byte, or none")
        }
        guard dropReportDelay >= .zero, dropReportDelay <= .seconds(10) else {
            throw LinkProfileError(field: "dropReportDelay", value: "\(dropReportDelay)", expected: "0 to 10 s")
        }
    }
}
