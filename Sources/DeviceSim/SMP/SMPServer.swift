import DFUCore
import Transport

/// Zephyr's MCUmgr SMP server with the image and OS groups, as a sans-I/O state machine: it is given
/// write payloads and the time, and returns response packets when their processing time is over.
/// It owns the device's flash (through the bootloader model) and the upload session.
///
/// Timing follows Zephyr's transport: writes are collected into buffers from a pool of
/// `bufferCount` (a write finding none free is lost), complete requests wait in a FIFO, and one work
/// queue handles them one at a time, each for its flash time (an upload chunk's write, the first
/// chunk's erase). A request's state change happens when its processing starts; its reply, upload
/// progress and reset request come out when it ends.
///
/// Drive it like quinn-proto: call `handle(_:now:)` for every input with the current time, carry out
/// the returned actions in order, and call `handle(.tick, now:)` again at `nextDeadline` (an early
/// tick does nothing).
public struct SMPServer: Sendable {
    public enum Event: Sendable, Hashable {
        /// One Write Command payload (or one UDP datagram) on the SMP characteristic.
        case write([UInt8])
        /// The link went away: the half-collected packet and the link's queued requests are
        /// dropped, and replies still being processed are not sent. The upload session stays.
        case disconnected
        /// Time passed; complete whatever is due.
        case tick
    }

    public enum Action: Sendable, Hashable {
        /// A whole response packet, to be sent as (ATT MTU − 3)-byte notifications or one datagram.
        case respond([UInt8])
        /// An upload chunk was written; comes right before that chunk's `respond`.
        case uploadProgress(UploadProgress)
        /// A reset was accepted (its reply came just before): reboot after the delay. `bootMode`:
        /// what the reset stored in the retained boot mode (`bootmode_set`), if it stored anything.
        case resetRequested(after: Duration, bootMode: UInt8?)
        /// Something was thrown away without a reply.
        case dropped(SMPDrop)
        /// A link-drop fault at a request (`SimFault.dropLink`): close the link. Comes as the
        /// request arrives (it is then not carried out), in place of its reply, or right after it.
        case dropLink(SimFault)
    }

    /// A complete request waiting for the work queue.
    private struct Request: Sendable {
        let bytes: [UInt8]
        let link: Int
        /// A link-drop fault due when its processing ends (instead of or after the reply).
        var drop: (fault: SimFault, moment: LinkDropMoment)? = nil
    }

    /// The request the work queue is busy with.
    private struct Job: Sendable {
        let completion: MonotonicInstant
        let actions: [Action]
        let buffers: Int
        let link: Int
        let drop: (fault: SimFault, moment: LinkDropMoment)?
    }

    public internal(set) var configuration: SMPServerConfiguration
    /// Flash and trailer: what survives a reset.
    public internal(set) var bootloader: MCUbootBootloader
    var images: ImageManager
    var pool: BufferPool
    private var reassembler = SMPReassembler()
    private var queue: [Request] = []
    private var job: Job?
    /// Upload requests still to be answered busy (a `busy@` fault); RAM, lost at reset.
    private var busyUploads = 0
    /// Counts disconnections, so a reply can tell whether the link that asked is still there.
    private var link = 0
    /// Link drops injected at requests (`SimFault.dropLink`); set by the device.
    var linkDrops = RequestLinkDrops([])

    public init(configuration: SMPServerConfiguration = SMPServerConfiguration(), bootloader: MCUbootBootloader) {
        self.configuration = configuration
        self.bootloader = bootloader
        images = ImageManager(imageCheck: configuration.imageCheck)
        pool = BufferPool(capacity: configuration.bufferCount)
    }

    /// The upload in progress, if any.
    public var uploadSession: UploadSession? { images.session }

    /// Buffers taken from the pool (collecting, queued, being processed).
    public var buffersInUse: Int { pool.inUse }

    /// Requests received and not yet answered (queued plus the one being processed).
    public var pendingRequests: Int { queue.count + (job == nil ? 0 : 1) }

    /// When the request being processed completes; nil when idle.
    public var nextDeadline: MonotonicInstant? { job?.completion }

    public mutating func handle(_ event: Event, now: MonotonicInstant) -> [Action] {
        var actions = advance(to: now)
        switch event {
        case .tick:
            break
        case .disconnected:
            reassembler.drop(pool: &pool)
            if !queue.isEmpty {
                pool.give(queue.count)
                actions.append(.dropped(.discardedOnDisconnect(count: queue.count)))
                queue.removeAll()
            }
            link += 1
        case .write(let bytes):
            receive(bytes, into: &actions)
            startNext(at: now)
        }
        // A request that takes no time is answered in the same call.
        actions += advance(to: now)
        return actions
    }

    /// A reset: every RAM state (upload session, buffers, queue, work in progress) is gone. The
    /// bootloader's flash and trailer stay; booting is the device's job.
    public mutating func loseRAM() {
        images.session = nil
        busyUploads = 0
        reassembler = SMPReassembler()
        queue.removeAll()
        job = nil
        pool.reset()
        link += 1
    }

    /// The next `count` upload requests are answered `MGMT_ERR_EBUSY` (rc 10) without being
    /// processed: the session and the flash stay as they are.
    mutating func answerUploadsBusy(_ count: Int) {
        busyUploads += max(0, count)
    }

    /// Takes one pending busy answer, if any.
    mutating func takeBusyAnswer() -> Bool {
        guard busyUploads > 0 else { return false }
        busyUploads -= 1
        return true
    }

    /// Turns one write into zero or one complete request buffer, by the configured framing.
    private mutating func receive(_ bytes: [UInt8], into actions: inout [Action]) {
        switch configuration.framing {
        case .reassembly:
            switch reassembler.collect(bytes, bufferSize: configuration.bufferSize, pool: &pool) {
            case .collecting: break
            case .complete(let packet): enqueue(packet, into: &actions)
            case .dropped(let reason): actions.append(.dropped(reason))
            }
        case .onePacketPerWrite, .datagram:
            guard pool.take() else {
                actions.append(.dropped(.noFreeBuffer(writeSize: bytes.count)))
                return
            }
            if bytes.count > configuration.bufferSize {
                guard configuration.framing == .datagram else {
                    pool.give()
                    actions.append(.dropped(.writeTooLarge(size: bytes.count, limit: configuration.bufferSize)))
                    return
                }
                // A UDP stack copies what fits the buffer; the packet then comes up short.
                enqueue(Array(bytes.prefix(configuration.bufferSize)), into: &actions)
                return
            }
            enqueue(bytes, into: &actions)
        }
    }

    /// Queues one complete request (its buffer taken), unless a link-drop fault closes the link as
    /// it arrives: then it is lost with its buffer.
    private mutating func enqueue(_ packet: [UInt8], into actions: inout [Action]) {
        let drop = linkDrops.isEmpty ? nil : linkDrops.arrived(packet, session: images.session)
        if let drop, drop.moment == .beforeHandling {
            pool.give()
            actions.append(.dropLink(drop.fault))
            return
        }
        queue.append(Request(bytes: packet, link: link, drop: drop))
    }

    /// Completes every job due by `now`, starting each next one when the previous ended.
    private mutating func advance(to now: MonotonicInstant) -> [Action] {
        var actions: [Action] = []
        while let current = job, current.completion <= now {
            job = nil
            pool.give(current.buffers)
            let dropsInstead = current.drop?.moment == .insteadOfAnswer
            for action in current.actions {
                if case .respond = action, current.link != link {
                    actions.append(.dropped(.responseLostOnDisconnect))
                } else if case .respond = action, dropsInstead {
                    continue // the link goes instead
                } else {
                    actions.append(action)
                }
            }
            // The link that asked is still the one up: close it (a later one is not the fault's).
            if let drop = current.drop, current.link == link { actions.append(.dropLink(drop.fault)) }
            startNext(at: current.completion)
        }
        return actions
    }

    /// Starts the next queued request if the work queue is free. Requests of a link that has gone
    /// were removed on disconnect, so everything queued belongs to the current link.
    private mutating func startNext(at time: MonotonicInstant) {
        guard job == nil, !queue.isEmpty else { return }
        let request = queue.removeFirst()
        let processed = process(request.bytes)
        job = Job(completion: time.advanced(by: processed.duration), actions: processed.actions,
                  buffers: 1 + (processed.usedResponseBuffer ? 1 : 0), link: request.link, drop: request.drop)
    }
}
