@testable import DFUCore
import Transport

/// The transfer core joined to a `NordicFakeBootloader` on a virtual clock (quinn's `Pair`): CP
/// writes reach the device and its answers come back as notifications, packet batches are written
/// (and accepted) in order, deadlines jump the clock, and faults are scripted by the count of CP
/// writes or packets, or drawn from a seeded generator.
struct NordicTestPair {
    enum Outcome: Equatable {
        case completed(NordicTransferCompletion)
        case failed(NordicTransferError)
        /// Nothing to do and no deadline: the core hangs (always a bug).
        case stuck
        case tooManySteps
    }

    var core: NordicTransferCore
    var device: NordicFakeBootloader
    var now = MonotonicInstant.zero
    var packetSize: Int
    /// CP writes (numbered from 0) before which the link drops (the device never sees them).
    var dropLinkBeforeWrite: Set<Int> = []
    /// CP writes the device handles but whose answer is lost with the link.
    var dropLinkAfterWrite: Set<Int> = []
    /// CP writes that a dying link fails with ATT 0x0E, as bluetoothd does, before the loss is
    /// reported `dyingLinkReportDelay` later (the device never sees them).
    var dyingLinkAtWrite: Set<Int> = []
    var dyingLinkReportDelay: Duration = .milliseconds(40)
    /// Packet writes (device numbering) at which the link drops; that packet is lost.
    var dropLinkAtPacket: Set<Int> = []
    /// Answers to replace: CP write number → notification bytes.
    var replaceAnswer: [Int: [UInt8]] = [:]
    /// Notification bytes to inject right after CP write number n's answer.
    var injectAfterWrite: [Int: [UInt8]] = [:]
    /// Random faults per mille (link drops per CP write and per batch), from `rng`.
    var linkDropPerMille = 0
    var maxRandomLinkDrops = 0
    var rng = SplitMix64(seed: 0)
    /// Whether the driver restores the link after `reconnect`.
    var reconnects = true
    /// Deliver PRNs before the batch's acceptance (false: after).
    var acceptBeforePRN = true
    /// Packet writes (device numbering) whose PRN comes late: held until the next CP write, then
    /// sent ahead of that write's answer, as a bootloader that processes its queue in order does
    /// when the client's receipt timeout ran out first.
    var latePRNAtPacket: Set<Int> = []
    private var heldPRN: [UInt8]?

    private(set) var cpWrites = 0
    private(set) var requestsSent: [NordicRequest] = []
    private(set) var progress: [AcknowledgedProgress] = []
    private(set) var linkDrops = 0
    private(set) var reconnectCount = 0
    private(set) var steps = 0
    private(set) var failedActions = 0
    private(set) var maxPacket = 0
    private var queue: [NordicTransferCore.Event] = []
    private var deadline: MonotonicInstant?
    private var outcome: Outcome?
    private var linkUp = true

    init(initPacket: [UInt8], image: [UInt8], packetSize: Int = 244, prn: UInt16 = 0, retries: Int = 3,
         sdk: NordicFakeBootloader.SDK = .sdk15, commandMaxSize: Int = 256, dataMaxSize: Int = 4096) {
        self.packetSize = packetSize
        core = NordicTransferCore(initPacket: initPacket, firmware: image,
                                  configuration: NordicTransferConfiguration(packetSize: packetSize,
                                                                            packetReceiptNotification: prn,
                                                                            retriesPerObject: retries))
        device = NordicFakeBootloader(sdk: sdk, commandMaxSize: commandMaxSize, dataMaxSize: dataMaxSize,
                                      initPacket: initPacket, image: image)
    }

    /// The device validated exactly the image (a Bool, so a failed expectation prints no image).
    var deviceHoldsImage: Bool { device.completedImage == device.expectedImage }

    /// CP requests since the last reconnect.
    var requestsAfterReconnect: [NordicRequest] { requestsByLink.last ?? [] }
    private(set) var requestsByLink: [[NordicRequest]] = [[]]

    mutating func run(maxSteps: Int = 200_000) -> Outcome {
        queue = [.start]
        while outcome == nil {
            steps += 1
            guard steps <= maxSteps else { return .tooManySteps }
            if queue.isEmpty {
                guard let deadline else { return .stuck }
                now = max(now, deadline)
                queue.append(.timerFired)
            }
            let event = queue.removeFirst()
            for action in core.handle(event, now: now) { perform(action) }
        }
        return outcome ?? .stuck
    }

    private mutating func perform(_ action: NordicTransferCore.Action) {
        switch action {
        case .writeControlPoint(let bytes):
            writeControlPoint(bytes)
        case .writePackets(let packets):
            writePackets(packets)
        case .timer(let at):
            deadline = at
        case .progress(let value):
            progress.append(value)
        case .reconnect:
            guard reconnects else { return }
            reconnectCount += 1
            now = now + .seconds(1)
            linkUp = true
            requestsByLink.append([])
            queue.append(.linkRestored(packetSize: packetSize))
        case .completed(let completion):
            outcome = .completed(completion)
        case .failed(let error):
            failedActions += 1
            outcome = .failed(error)
        }
    }

    private mutating func writeControlPoint(_ bytes: [UInt8]) {
        guard linkUp else { return }
        let index = cpWrites
        cpWrites += 1
        if let request = NordicRequest(decoding: bytes) {
            requestsSent.append(request)
            requestsByLink[requestsByLink.count - 1].append(request)
        }
        if dropLinkBeforeWrite.contains(index) || randomLinkDrop() {
            dropLink()
            return
        }
        if dyingLinkAtWrite.contains(index) {
            dropLink()
            queue = [.controlPointWriteRejected(attError: 0x0E)]
            if dyingLinkReportDelay < core.configuration.linkVerdictDelay {
                now = now + dyingLinkReportDelay
                queue.append(.linkLost)
            }
            return
        }
        now = now + .milliseconds(2)
        if let held = heldPRN {
            heldPRN = nil
            queue.append(.controlPointNotification(held))
        }
        let answer = device.controlPoint(bytes)
        if dropLinkAfterWrite.contains(index) {
            dropLink()
            return
        }
        queue.append(.controlPointNotification(replaceAnswer[index] ?? answer))
        if let extra = injectAfterWrite[index] { queue.append(.controlPointNotification(extra)) }
        if device.resetting {
            // The bootloader answered the final Execute and resets.
            linkUp = false
            queue.append(.linkLost)
        }
    }

    private mutating func writePackets(_ packets: [[UInt8]]) {
        guard linkUp else { return }
        var notifications: [[UInt8]] = []
        let dropMidBatch = randomLinkDrop()
        for (number, packet) in packets.enumerated() {
            maxPacket = max(maxPacket, packet.count)
            if dropLinkAtPacket.remove(device.packetIndex) != nil || (dropMidBatch && number == packets.count / 2) {
                dropLink()
                return
            }
            now = now + .microseconds(500)
            let index = device.packetIndex
            if let prn = device.packet(packet) {
                if latePRNAtPacket.contains(index) { heldPRN = prn } else { notifications.append(prn) }
            }
        }
        let events = notifications.map(NordicTransferCore.Event.controlPointNotification)
        queue += acceptBeforePRN ? [.packetsAccepted] + events : events + [.packetsAccepted]
    }

    private mutating func randomLinkDrop() -> Bool {
        guard linkDropPerMille > 0, linkDrops < maxRandomLinkDrops else { return false }
        return rng.next(below: 1000) < linkDropPerMille
    }

    private mutating func dropLink() {
        linkDrops += 1
        linkUp = false
        device.linkDropped()
        heldPRN = nil
        queue = [.linkLost] // whatever was in flight is gone with the link
    }
}

/// Deterministic bytes for images and init packets.
func nordicTestBytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var rng = SplitMix64(seed: seed)
    return (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
}
