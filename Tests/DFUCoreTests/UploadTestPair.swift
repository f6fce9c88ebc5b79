@testable import DFUCore
import Transport

/// An `ImageUploadCore` joined to an `UploadTestDevice` on a virtual clock (quinn's `Pair`):
/// writes leave one per `writeTime` and arrive after `latency`; the device works through requests
/// in arrival order, erasing before it answers a new session; replies come back after `latency`.
/// `run()` jumps from one scheduled moment to the next until the core completes or fails, and
/// records a hang if nothing is scheduled while the core still waits.
struct UploadTestPair {
    enum Outcome: Equatable {
        case completed(match: Bool?)
        case failed(ImageUploadError)
        /// Nothing scheduled and the core not finished: the core waits for nothing.
        case hung
        case stepLimit
    }

    /// A link drop when the device has received request `atRequest`: everything in the air is lost
    /// (that request's reply too); the core gets `.linkRestored` `restoreAfter` later.
    struct LinkDrop {
        var atRequest: Int
        var restoreAfter: Duration = .seconds(2)
        var rebootsDevice = false
        /// Restore with this write size instead of the old one.
        var newMaxWrite: Int?
    }

    private struct Scheduled {
        var at: MonotonicInstant
        var bytes: [UInt8]
    }

    var core: ImageUploadCore
    var device: UploadTestDevice
    var now = MonotonicInstant.zero
    var latency: Duration = .milliseconds(10)
    var writeTime: Duration = .milliseconds(1)
    var chunkTime: Duration = .milliseconds(3)
    var eraseTime: Duration = .seconds(2)
    var fault: (Int, ImageUploadRequest?) -> UploadRequestFault = { _, _ in .none }
    var linkDrops: [LinkDrop] = []

    private(set) var outcome: Outcome?
    private(set) var progress: [AcknowledgedProgress] = []
    private(set) var timers: [MonotonicInstant?] = []
    /// Every write the core produced, in order.
    private(set) var writes: [[UInt8]] = []
    private(set) var maxCoreInFlight = 0
    /// Most requests the device held at once (received, not yet answered).
    private(set) var maxDeviceQueue = 0
    private(set) var requestsAtDevice = 0
    private(set) var failedActions = 0
    private(set) var actionsAfterFinish = 0

    private var wake: MonotonicInstant?
    private var toDevice: [Scheduled] = []
    private var toClient: [Scheduled] = []
    private var restoreAt: (MonotonicInstant, Int)?
    private var lastWriteLeaves = MonotonicInstant.zero
    private var deviceFreeAt = MonotonicInstant.zero
    private var deviceQueueEnds: [MonotonicInstant] = []
    private var maxWrite: Int

    init(image: [UInt8], window: Int = 3, budget: SMPPacketBudget = SMPPacketBudget(maxWriteSize: 495, deviceBufferSize: 2475, deviceReassembles: true),
         configuration: ImageUploadConfiguration? = nil, clientConfiguration: SMPClientCore.Configuration = .init(),
         imageNumber: UInt64? = nil, upgradeOnly: Bool = false, sha: [UInt8]? = nil) throws {
        let job = ImageUploadJob(image: image, sha256: try sha ?? SHA256.hash(image), imageNumber: imageNumber,
                                 upgradeOnly: upgradeOnly)
        var config = configuration ?? ImageUploadConfiguration()
        if configuration == nil { config.window = window }
        core = ImageUploadCore(job: job, configuration: config,
                               client: SMPClientCore(budget: budget, configuration: clientConfiguration))
        device = UploadTestDevice(bufferSize: budget.maxPacketSize)
        maxWrite = budget.maxWriteSize
    }

    /// Requests the device decoded, in order.
    var deviceRequests: [ImageUploadRequest] { device.received.map(\.request) }

    private var started = false

    mutating func start() {
        started = true
        feed(.start)
    }

    /// Runs to the end (or `maxSteps` scheduled moments).
    @discardableResult
    mutating func run(maxSteps: Int = 200_000) -> Outcome {
        if !started { start() }
        var steps = 0
        while outcome == nil {
            steps += 1
            if steps > maxSteps { outcome = .stepLimit; break }
            if !step() { outcome = .hung }
        }
        return outcome ?? .hung
    }

    mutating func feed(_ event: ImageUploadCore.Event) {
        let wasFinished = core.isFinished
        let actions = core.handle(event, now: now)
        if wasFinished { actionsAfterFinish += actions.count }
        for action in actions {
            switch action {
            case .write(let bytes):
                writes.append(bytes)
                lastWriteLeaves = max(lastWriteLeaves, now) + writeTime
                toDevice.append(Scheduled(at: lastWriteLeaves + latency, bytes: bytes))
            case .timer(let at):
                wake = at
                timers.append(at)
            case .progress(let p):
                progress.append(p)
            case .completed(let match):
                if outcome == nil { outcome = .completed(match: match) }
            case .failed(let error):
                failedActions += 1
                if outcome == nil { outcome = .failed(error) }
            }
        }
        maxCoreInFlight = max(maxCoreInFlight, core.requestsInFlight)
    }

    /// Advances to the next scheduled moment and handles everything due then. False when nothing is
    /// scheduled.
    mutating func step() -> Bool {
        let candidates = [toDevice.first?.at, toClient.first?.at, wake, restoreAt?.0].compactMap { $0 }
        guard let next = candidates.min() else { return false }
        now = max(now, next)
        if let (at, write) = restoreAt, at <= now {
            restoreAt = nil
            maxWrite = write
            feed(.linkRestored(maxWriteSize: write))
            return true
        }
        if let first = toDevice.first, first.at <= now {
            toDevice.removeFirst()
            deviceReceives(first)
            return true
        }
        if let first = toClient.first, first.at <= now {
            toClient.removeFirst()
            feed(.notification(first.bytes))
            return true
        }
        if let at = wake, at <= now {
            wake = nil
            feed(.timerFired)
        }
        return true
    }

    private mutating func deviceReceives(_ write: Scheduled) {
        guard let frame = device.receive(write: write.bytes) else { return }
        requestsAtDevice += 1
        let index = requestsAtDevice
        let request = (try? SMPPacket(frame: frame)).flatMap { try? ImageUploadRequest(body: $0.body) }
        let fault = fault(index, request)
        if case .lose = fault { return }
        if case .loseSessionFirst = fault { device.session = nil }

        let startsSession = request.map { $0.offset == 0 && device.session?.sha != $0.sha } ?? false
        let start = max(now, deviceFreeAt)
        var end = start + (startsSession ? eraseTime : chunkTime)
        if case .stallDevice(let extra) = fault { end = end + extra }
        deviceFreeAt = end
        deviceQueueEnds.removeAll { $0 <= now }
        deviceQueueEnds.append(end)
        maxDeviceQueue = max(maxDeviceQueue, deviceQueueEnds.count)

        var replyBytes: [UInt8]
        switch fault {
        case .answerError(let error):
            device.session = nil
            replyBytes = (try? SMPPacket.response(to: frame.header, error: error).encoded()) ?? []
        case .answerBusy:
            replyBytes = (try? SMPPacket.response(to: frame.header, error: .mcumgr(.busy)).encoded()) ?? []
        case .answerBody(let body):
            replyBytes = (try? SMPPacket.response(to: frame.header, body: body).encoded()) ?? []
        case .answerBodyBytes(let body):
            replyBytes = frame.header.responseHeader(length: UInt16(body.count)).encoded() + body
        case .answerBytes(let bytes):
            replyBytes = bytes
        default:
            replyBytes = (try? device.respond(to: frame).encoded()) ?? []
        }
        var replyAt = end + latency
        switch fault {
        case .dropReply: return
        case .delayReply(let extra): replyAt = replyAt + extra
        default: break
        }
        let copies = { if case .duplicateReply = fault { return 2 } else { return 1 } }()
        for _ in 0..<copies { schedule(reply: replyBytes, at: replyAt) }

        if let drop = linkDrops.first, drop.atRequest == index {
            linkDrops.removeFirst()
            dropLink(drop)
        }
    }

    /// Cuts a reply into notifications of at most the write size, all at `at`, after anything due then.
    private mutating func schedule(reply: [UInt8], at: MonotonicInstant) {
        var pieces: [[UInt8]] = []
        var start = 0
        repeat {
            let end = min(start + maxWrite, reply.count)
            pieces.append(Array(reply[start..<end]))
            start = end
        } while start < reply.count
        let index = toClient.firstIndex { $0.at > at } ?? toClient.endIndex
        toClient.insert(contentsOf: pieces.map { Scheduled(at: at, bytes: $0) }, at: index)
    }

    private mutating func dropLink(_ drop: LinkDrop) {
        toDevice.removeAll()
        toClient.removeAll()
        device.assembler.reset()
        if drop.rebootsDevice { device.session = nil }
        feed(.linkLost)
        restoreAt = (now + drop.restoreAfter, drop.newMaxWrite ?? maxWrite)
    }
}
