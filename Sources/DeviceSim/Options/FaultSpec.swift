import Transport

/// One fault as written in the options, before a `@random` point is drawn from the seed.
///
/// Syntax: `KIND@WHERE`, for delay and outage `KIND@WHERE[:DURATION]`, for busy `busy@WHERE[:COUNT]`:
/// - KIND: `disconnect`, `reboot`, `stall`, `corrupt`, `duplicate`, `delay`, `busy`, `silent`
///   (deaf until the upload's resume packet), `outage` (deaf for DURATION);
/// - WHERE: `N%` (a share of the image, decimals allowed), `N` (bytes; `K` suffix for KiB), or
///   `random` (a point between 5 % and 95 % drawn from `seed`); `imageI/` before `N%` or `N`
///   limits it to the upload to image index I (`disconnect@image1/50%`);
/// - DURATION: `1500ms` or `2s`; default 1 s.
/// - COUNT: how many upload requests in a row are answered busy, 1…1000; default 1.
///
/// Link drops at a request: `drop@request:NAME[:N]` (the device carries the Nth NAME request out,
/// then closes the link instead of answering), `drop-before@…` (it closes the link as the request
/// arrives, never carrying it out), `drop-after@…` (it answers, then closes the link). NAME is an
/// SMP command (`SMPCommand.name`: params, echo, os-info, bootloader-info, suit, slot-info,
/// state-read, state-write, upload, erase, reset); N counts from 1 over the device's life, across
/// reconnections and resets (default 1); `request:upload:last` is the upload request that carries
/// the image's last byte. These kinds take only a request, and a request only these kinds.
struct FaultSpec: Sendable, Hashable {
    enum Kind: String, Sendable, Hashable, CaseIterable {
        case disconnect, reboot, stall, corrupt, duplicate, delay, busy, silent, outage
        case drop, dropBefore = "drop-before", dropAfter = "drop-after"

        /// The moment a link-drop kind closes the link; nil for the upload faults.
        var linkDropMoment: LinkDropMoment? {
            switch self {
            case .drop: return .insteadOfAnswer
            case .dropBefore: return .beforeHandling
            case .dropAfter: return .afterAnswer
            case .disconnect, .reboot, .stall, .corrupt, .duplicate, .delay, .busy, .silent, .outage: return nil
            }
        }
    }

    enum Point: Sendable, Hashable {
        case fixed(FaultTrigger)
        case random
        /// A link-drop kind's request.
        case request(SMPRequestPoint)
    }

    static let defaultDelay: Duration = .seconds(1)

    let kind: Kind
    let point: Point
    let delay: Duration
    /// Busy answers in a row (busy only).
    let count: Int

    static let expected = "KIND@N% or KIND@BYTES or KIND@random, optionally KIND@imageI/N% (KIND: disconnect, reboot, stall, corrupt, "
        + "duplicate, delay, busy, silent, outage; delay and outage take :MS like delay@50%:1500ms, busy a count like "
        + "busy@50%:3), "
        + "or drop@REQUEST, drop-before@REQUEST, drop-after@REQUEST (REQUEST: \(SMPRequestPoint.expected)), "
        + "several joined with '+'"

    /// Parses one fault (no `+`).
    init?(_ text: Substring) {
        let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let kind = Kind(rawValue: parts[0].lowercased()) else { return nil }
        var location = parts[1]
        var delay = Self.defaultDelay
        var count = 1
        if kind.linkDropMoment != nil {
            guard let request = SMPRequestPoint(location) else { return nil }
            self.init(kind: kind, point: .request(request), delay: delay, count: count)
            return
        }
        if let colon = location.firstIndex(of: ":") {
            let suffix = location[location.index(after: colon)...]
            switch kind {
            case .delay, .outage:
                guard let parsed = Self.duration(suffix) else { return nil }
                delay = parsed
            case .busy:
                guard let parsed = Int(suffix), (1 ... 1000).contains(parsed) else { return nil }
                count = parsed
            default:
                return nil
            }
            location = location[..<colon]
        }
        guard let point = Self.point(location) else { return nil }
        self.init(kind: kind, point: point, delay: delay, count: count)
    }

    private init(kind: Kind, point: Point, delay: Duration, count: Int) {
        self.kind = kind
        self.point = point
        self.delay = delay
        self.count = count
    }

    /// The fault with its point fixed; `random` draws from `seed` and the fault's position so two
    /// random faults land apart.
    func resolved(seed: UInt64, index: Int) -> SimFault {
        let trigger: FaultTrigger
        switch point {
        case .request(let request):
            // Only the link-drop kinds are parsed with a request.
            return .dropLink(kind.linkDropMoment ?? .insteadOfAnswer, at: request)
        case .fixed(let fixed):
            trigger = fixed
        case .random:
            let draw = SplitMix64.value(seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
            trigger = .percent(5 + Double(draw % 9001) / 100)
        }
        switch kind {
        case .disconnect: return .disconnect(at: trigger)
        case .reboot: return .reboot(at: trigger)
        case .stall: return .stall(at: trigger)
        case .corrupt: return .corrupt(at: trigger)
        case .duplicate: return .duplicate(at: trigger)
        case .delay: return .delay(at: trigger, by: delay)
        case .busy: return .busy(at: trigger, count: count)
        case .silent: return .silent(at: trigger)
        case .outage: return .outage(at: trigger, for: delay)
        case .drop, .dropBefore, .dropAfter:
            // Never parsed with an upload point; the nearest meaning of one is the upload fault.
            return .disconnect(at: trigger)
        }
    }

    /// The text that parses back to this spec.
    var text: String {
        let location: String
        switch point {
        case .fixed(let trigger): location = trigger.description
        case .random: location = "random"
        case .request(let request): location = request.description
        }
        let suffix = kind == .delay || kind == .outage ? ":\(delay.wholeMilliseconds)ms" : kind == .busy && count != 1 ? ":\(count)" : ""
        return "\(kind.rawValue)@\(location)\(suffix)"
    }

    private static func point(_ text: Substring) -> Point? {
        if text.lowercased().hasPrefix("image"), let slash = text.firstIndex(of: "/"),
           let image = Int(text[text.index(text.startIndex, offsetBy: 5) ..< slash]), (0 ... 15).contains(image) {
            guard case .fixed(let trigger) = point(text[text.index(after: slash)...]) else { return nil }
            return .fixed(.inImage(image, trigger))
        }
        if text.lowercased() == "random" { return .random }
        if text.hasSuffix("%") {
            guard let share = Double(text.dropLast()), share.isFinite, (0 ... 100).contains(share) else { return nil }
            return .fixed(.percent(share))
        }
        guard let bytes = SimOptions.size(text), bytes >= 0 else { return nil }
        return .fixed(.bytes(bytes))
    }

    private static func duration(_ text: Substring) -> Duration? {
        if text.hasSuffix("ms"), let ms = Int64(text.dropLast(2)), ms >= 0 { return .milliseconds(ms) }
        if text.hasSuffix("s"), let s = Int64(text.dropLast()), s >= 0 { return .seconds(s) }
        return nil
    }
}

/// A tiny deterministic mixer (SplitMix64), so seeded choices are the same on every platform.
public enum SplitMix64 {
    public static func value(_ seed: UInt64) -> UInt64 {
        var z = seed &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
