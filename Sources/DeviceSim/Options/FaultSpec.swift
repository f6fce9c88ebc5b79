import Transport

/// One fault as written in the options, before a `@random` point is drawn from the seed.
///
/// Syntax: `KIND@WHERE`, for delay and outage `KIND@WHERE[:DURATION]`, for busy `busy@WHERE[:COUNT]`,
/// for truncate `truncate@WHERE[:BYTES]`, for battery `battery@WHERE:PERCENT`:
/// - KIND: `disconnect`, `reboot`, `stall`, `corrupt`, `duplicate`, `reorder` (the reply swaps
///   places with the next one), `truncate` (the reply's last BYTES missing, default 1), `delay`,
///   `busy`, `silent` (deaf until the upload's resume packet), `outage` (deaf for DURATION),
///   `battery` (the battery reads PERCENT from then on);
/// - WHERE: `N%` (a share of the image, decimals allowed), `N` (bytes; `K` suffix for KiB), or
///   `random` (a point between 5 % and 95 % drawn from `seed`); `imageI/` before `N%` or `N`
///   limits it to the upload to image index I (`disconnect@image1/50%`);
/// - DURATION: `1500ms` or `2s`; default 1 s.
/// - COUNT: how many upload requests in a row are answered busy, 1…1000; default 1.
///
/// Faults at a request: `drop@request:NAME[:N]` (the device carries the Nth NAME request out,
/// then closes the link instead of answering), `drop-before@…` (it closes the link as the request
/// arrives, never carrying it out), `drop-after@…` (it answers, then closes the link); `reboot@…`,
/// `reboot-before@…` and `reboot-after@…` are the same three moments with a reset instead of a
/// link drop (`reboot` takes an upload point too). NAME is an SMP command (`SMPCommand.name`:
/// params, echo, os-info, bootloader-info, suit, slot-info, state-read, state-write, upload,
/// erase, reset); N counts from 1 over the device's life, across reconnections and resets
/// (default 1); `request:upload:last` is the upload request that carries the image's last byte.
/// The drop and reboot-before/-after kinds take only a request.
struct FaultSpec: Sendable, Hashable {
    enum Kind: String, Sendable, Hashable, CaseIterable {
        case disconnect, reboot, stall, corrupt, duplicate, reorder, truncate, delay, busy, silent, outage, battery
        case drop, dropBefore = "drop-before", dropAfter = "drop-after"
        case rebootBefore = "reboot-before", rebootAfter = "reboot-after"

        /// The moment a link-drop kind closes the link; nil for the other kinds.
        var linkDropMoment: LinkDropMoment? {
            switch self {
            case .drop: return .insteadOfAnswer
            case .dropBefore: return .beforeHandling
            case .dropAfter: return .afterAnswer
            default: return nil
            }
        }

        /// The moment a reboot kind resets the device when it waits for a request.
        var rebootMoment: LinkDropMoment? {
            switch self {
            case .reboot: return .insteadOfAnswer
            case .rebootBefore: return .beforeHandling
            case .rebootAfter: return .afterAnswer
            default: return nil
            }
        }

        /// Whether the kind takes only a request, never an upload point.
        var onlyAtRequest: Bool { linkDropMoment != nil || self == .rebootBefore || self == .rebootAfter }
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
    /// Busy answers in a row (busy), bytes cut off (truncate), the battery's percent (battery).
    let count: Int

    static let expected = "KIND@N% or KIND@BYTES or KIND@random, optionally KIND@imageI/N% (KIND: disconnect, reboot, stall, corrupt, "
        + "duplicate, reorder, truncate, delay, busy, silent, outage, battery; delay and outage take :MS like "
        + "delay@50%:1500ms (at most a day), busy a count like busy@50%:3, truncate the bytes cut like truncate@50%:4, battery the "
        + "percent it falls to like battery@50%:10), "
        + "or drop@REQUEST, drop-before@REQUEST, drop-after@REQUEST, reboot@REQUEST, reboot-before@REQUEST, "
        + "reboot-after@REQUEST (REQUEST: \(SMPRequestPoint.expected)), several joined with '+'"

    /// Parses one fault (no `+`).
    init?(_ text: Substring) {
        let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let kind = Kind(rawValue: parts[0].lowercased()) else { return nil }
        var location = parts[1]
        var delay = Self.defaultDelay
        var count = 1
        if kind.onlyAtRequest || (kind == .reboot && location.lowercased().hasPrefix("request:")) {
            guard let request = SMPRequestPoint(location) else { return nil }
            self.init(kind: kind, point: .request(request), delay: delay, count: count)
            return
        }
        // A battery fault without its level says nothing.
        if kind == .battery, !location.contains(":") { return nil }
        if let colon = location.firstIndex(of: ":") {
            let suffix = location[location.index(after: colon)...]
            switch kind {
            case .delay, .outage:
                guard let parsed = Self.duration(suffix) else { return nil }
                delay = parsed
            case .busy:
                guard let parsed = Int(suffix), (1 ... 1000).contains(parsed) else { return nil }
                count = parsed
            case .truncate:
                guard let parsed = Int(suffix), (1 ... Int(UInt16.max)).contains(parsed) else { return nil }
                count = parsed
            case .battery:
                let digits = suffix.hasSuffix("%") ? suffix.dropLast() : suffix
                guard let level = Int(digits), (0 ... 100).contains(level) else { return nil }
                count = level
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
            // Only the link-drop and reboot kinds are parsed with a request.
            if let moment = kind.rebootMoment { return .rebootAtRequest(moment, at: request) }
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
        case .reorder: return .reorder(at: trigger)
        case .truncate: return .truncate(at: trigger, bytes: count)
        case .battery: return .battery(at: trigger, level: UInt8(clamping: count))
        case .delay: return .delay(at: trigger, by: delay)
        case .busy: return .busy(at: trigger, count: count)
        case .silent: return .silent(at: trigger)
        case .outage: return .outage(at: trigger, for: delay)
        case .drop, .dropBefore, .dropAfter:
            // Never parsed with an upload point; the nearest meaning of one is the upload fault.
            return .disconnect(at: trigger)
        case .rebootBefore, .rebootAfter:
            return .reboot(at: trigger)
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
        let suffix: String
        switch kind {
        case .delay, .outage: suffix = ":\(delay.wholeMilliseconds)ms"
        case .busy, .truncate: suffix = count != 1 ? ":\(count)" : ""
        case .battery: suffix = ":\(count)"
        default: suffix = ""
        }
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

    /// The longest delay or outage: a day is longer than any deadline of dfu's, and bounding it
    /// keeps the fault's text (`:MSms`) within Int64 (make fuzz's SimOptions target found
    /// `outage@8192:0000005523502485315576718s` trapping there).
    static let longestDelay: Duration = .seconds(86_400)

    private static func duration(_ text: Substring) -> Duration? {
        let parsed: Duration
        if text.hasSuffix("ms"), let ms = Int64(text.dropLast(2)), ms >= 0 {
            parsed = .milliseconds(ms)
        } else if text.hasSuffix("s"), let s = Int64(text.dropLast()), s >= 0 {
            parsed = .seconds(s)
        } else {
            return nil
        }
        return parsed <= longestDelay ? parsed : nil
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
