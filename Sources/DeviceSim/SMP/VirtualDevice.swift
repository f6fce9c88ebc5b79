import DFUCore
import Transport

/// A Zephyr application with MCUmgr over BLE on MCUboot, as one sans-I/O value: the SMP server and
/// bootloader (`SMPServer`), a battery, the Device Information firmware revision, its power state
/// (running, reset pending, booting) and the faults it was told to inject.
///
/// It reads no clock and owns no socket. A transport wraps it:
///
///     var actions = device.handle(.connected(notificationSize: mtu - 3), now: clock.now)
///     actions = device.handle(.write(bytes), now: clock.now)      // each Write Command / datagram
///     … carry out `actions` in order …
///     if let wake = device.nextDeadline { sleep until wake; actions = device.handle(.tick, now: wake) }
///
/// - `.notify(bytes, after:, fault:)`: send one notification (or one datagram) after waiting
///   `after` (zero unless a delay fault fired); keep notification order.
/// - `.dropLink(cause)`: close the connection from the device side (after the notifications before
///   it went out over the air, for `.faultAfterReply` and `.reboot`). The device already treats
///   itself as disconnected; a later `.disconnected` event is ignored.
/// - `.rebooting(until:, report)`: stop advertising; the device cannot be connected until `until`.
/// - `.online`: advertise again (sent from the `.tick` at `until`).
/// - `.dropped`, `.faultInjected`: diagnostics only.
///
/// A memory link (`VirtualPeripheral`) and a UDP server (one packet per datagram, `notificationSize`
/// nil) are two such wrappers.
public struct VirtualDevice: Sendable {
    public enum Event: Sendable, Hashable {
        /// A central connected. `notificationSize` is the largest notification value (ATT MTU − 3);
        /// nil for a datagram transport, where a whole reply goes out as one datagram.
        case connected(notificationSize: Int?)
        /// One Write Command payload on the SMP characteristic, or one datagram.
        case write([UInt8])
        case disconnected
        /// Time passed (`now` is the argument of `handle`).
        case tick
    }

    public enum Action: Sendable, Hashable {
        case notify([UInt8], after: Duration, fault: NotificationFault?)
        case dropLink(LinkDropCause)
        case rebooting(until: MonotonicInstant, report: BootReport)
        case online
        case dropped(SMPDrop)
        case faultInjected(SimFault)
    }

    public enum LinkDropCause: Sendable, Hashable {
        /// The device resets (a reset command's delay ran out, or a reboot fault).
        case reboot
        /// A `disconnect@…` fault, or a `drop@`/`drop-before@` fault at a request.
        case fault
        /// A `drop-after@` fault: the link closes once the reply before it went out over the air.
        case faultAfterReply
    }

    public enum PowerState: Sendable, Hashable {
        /// Running the application; `resetAt` is set between a reset reply and the reboot.
        case running(resetAt: MonotonicInstant?)
        /// In the bootloader (swapping) and starting up; unreachable until `until`.
        case booting(until: MonotonicInstant)
        /// Held in MCUboot's serial recovery (`SerialVirtualDevice`): the application does not run
        /// and nothing connects, until a reset from the recovery.
        case inRecovery
    }

    public let identity: PeerIdentity
    public internal(set) var server: SMPServer
    public var batteryLevel: UInt8
    public internal(set) var power: PowerState = .running(resetAt: nil)
    /// The boot mode the application's reset stored for the bootloader (Zephyr's retention
    /// `bootmode_set`, `CONFIG_MCUMGR_GRP_OS_RESET_BOOT_MODE`); it survives resets until MCUboot
    /// reads and clears it (`VirtualDevice+Recovery.swift`). 0: a normal boot.
    public internal(set) var retainedBootMode: UInt8 = 0
    /// Every boot so far, oldest first.
    public private(set) var boots: [BootReport] = []
    /// Upload faults that have not fired yet (those at a request wait in the server,
    /// `SMPServer.linkDrops`).
    public private(set) var pendingFaults: [SimFault]
    /// The largest notification of the current connection; `.some(nil)` for datagrams, nil when
    /// nobody is connected.
    var connection: Int?? {
        // A reply held back for a link that is gone is lost with it.
        didSet { if connection == nil { heldReply = nil } }
    }
    /// A fault that applies to the next reply (stall, corrupt, duplicate, reorder, truncate, delay).
    private var replyFault: SimFault?
    /// A reply a `reorder@` fault holds back until the next reply has gone out.
    private var heldReply: [UInt8]?
    /// While a `silent@` or `outage@` fault holds: what ends it (`Deafness`).
    private var deafness: Deafness?

    public init(configuration: DeviceConfiguration) throws(DeviceSetupError) {
        let image: [UInt8]
        var others: [[UInt8]] = []
        do {
            image = try SyntheticImage.make(version: configuration.runningVersion)
            // Another size for each further image, so no two images have the same slot hash.
            for index in 1 ..< max(1, configuration.imageCount) {
                others.append(try SyntheticImage.make(version: configuration.runningVersion,
                                                      bodySize: SyntheticImage.networkCoreBodySize + index))
            }
        } catch {
            throw .image(error)
        }
        let bootloader: MCUbootBootloader
        do {
            bootloader = try MCUbootBootloader(slotSize: configuration.slotSize, pageSize: configuration.pageSize,
                                               timing: configuration.flashTiming, key: configuration.bootloaderKey,
                                               decryptionKey: configuration.decryptionKey,
                                               swapMode: configuration.swapMode,
                                               startupTime: configuration.startupTime, runningImage: image,
                                               otherImages: others)
        } catch {
            throw .bootloader(error)
        }
        identity = configuration.identity
        server = SMPServer(configuration: configuration.server, bootloader: bootloader)
        server.linkDrops = RequestLinkDrops(configuration.faults)
        batteryLevel = min(configuration.batteryLevel, 100)
        pendingFaults = configuration.faults.filter { $0.trigger != nil }
    }

    public var isConnected: Bool { connection != nil }

    /// The image the application runs, as Device Information reports it.
    public var runningImage: SlotImage? { server.bootloader.runningImage }

    /// Device Information firmware revision (0x2A26): the running version, Zephyr-style.
    public var firmwareRevision: String { runningImage?.versionString ?? "" }

    /// The running version as dfu writes versions everywhere (`1.1.0+0`), for the sim's own lines.
    public var runningVersionText: String { runningImage?.version.description ?? "no valid image" }

    /// The earliest instant at which `handle(.tick, now:)` has something to do.
    public var nextDeadline: MonotonicInstant? {
        switch power {
        case .booting(let until):
            return until
        case .running(let resetAt):
            return [resetAt, server.nextDeadline].compactMap { $0 }.min()
        case .inRecovery:
            return nil
        }
    }

    /// A GATT read: Battery Level and Firmware Revision; nil for anything else (read not permitted).
    public func read(_ characteristic: CharacteristicID) -> [UInt8]? {
        switch characteristic {
        case DeviceGATT.batteryLevel: return [batteryLevel]
        case DeviceGATT.firmwareRevision: return Array(firmwareRevision.utf8)
        default: return nil
        }
    }

    public mutating func handle(_ event: Event, now: MonotonicInstant) -> [Action] {
        var actions: [Action] = []
        advance(to: now, into: &actions)
        switch event {
        case .tick:
            break
        case .connected(let notificationSize):
            // A booting device does not advertise, so nobody can connect to it.
            guard case .running = power else { break }
            connection = .some(notificationSize)
        case .disconnected:
            guard connection != nil else { break }
            connection = nil
            route(server.handle(.disconnected, now: now), at: now, into: &actions)
        case .write(let bytes):
            guard case .running = power, connection != nil else { break }
            if let deaf = deafness {
                guard deaf.hears(bytes, at: now) else {
                    actions.append(.dropped(.deaf))
                    break
                }
                deafness = nil
            }
            route(server.handle(.write(bytes), now: now), at: now, into: &actions)
        }
        return actions
    }

    /// Runs every timer due by `now` in time order: replies completing, the reset after a reset
    /// reply, the end of a boot.
    private mutating func advance(to now: MonotonicInstant, into actions: inout [Action]) {
        while let due = nextDeadline, due <= now {
            switch power {
            case .booting:
                power = .running(resetAt: nil)
                actions.append(.online)
            case .running(let resetAt):
                if let serverDue = server.nextDeadline, serverDue <= due {
                    route(server.handle(.tick, now: serverDue), at: serverDue, into: &actions)
                } else if let resetAt {
                    reboot(at: resetAt, into: &actions)
                }
            case .inRecovery:
                return // no deadline: never reached
            }
        }
    }

    /// Carries out the server's actions, injecting faults where their triggers are reached.
    private mutating func route(_ serverActions: [SMPServer.Action], at time: MonotonicInstant, into actions: inout [Action]) {
        var linkFault = false
        for action in serverActions {
            switch action {
            case .uploadProgress(let progress):
                for fault in firedFaults(at: progress) {
                    actions.append(.faultInjected(fault))
                    switch fault {
                    case .reboot:
                        // The device dies here: nothing after this chunk goes out.
                        reboot(at: time, into: &actions)
                        return
                    case .disconnect:
                        if connection != nil {
                            connection = nil
                            actions.append(.dropLink(.fault))
                            linkFault = true
                        }
                    case .stall, .corrupt, .duplicate, .delay, .reorder, .truncate:
                        replyFault = fault
                    case .battery(_, let level):
                        batteryLevel = min(level, 100)
                    case .busy(_, let count):
                        server.answerUploadsBusy(count)
                    // The deafness loses this chunk's reply too (`.respond` below); a pending
                    // stall here would instead lose the first reply after the device hears again.
                    case .silent:
                        deafness = .untilResumePacket
                    case .outage(_, let duration):
                        deafness = .until(time.advanced(by: duration))
                    case .dropLink, .rebootAtRequest:
                        break // fired by the server, never at an upload point
                    }
                }
            case .respond(let packet):
                if deafness?.silences(at: time) == true {
                    actions.append(.dropped(.deaf))
                    continue
                }
                guard let size = connection else {
                    actions.append(.dropped(.responseLostOnDisconnect))
                    continue
                }
                actions += notifications(for: packet, size: size)
            case .resetRequested(let delay, let bootMode):
                if let bootMode { retainedBootMode = bootMode }
                if case .running = power { power = .running(resetAt: time.advanced(by: delay)) }
            case .dropped(let reason):
                actions.append(.dropped(reason))
            case .dropLink(let fault):
                actions.append(.faultInjected(fault))
                if case .rebootAtRequest = fault {
                    // The device dies at the request: what comes after it in this batch never happens.
                    reboot(at: time, into: &actions)
                    return
                }
                if connection != nil {
                    connection = nil
                    let afterReply = if case .dropLink(.afterAnswer, _) = fault { true } else { false }
                    actions.append(.dropLink(afterReply ? .faultAfterReply : .fault))
                    linkFault = true
                }
            }
        }
        if linkFault {
            // The server sees the link go: its queue is discarded, the session kept.
            route(server.handle(.disconnected, now: time), at: time, into: &actions)
        }
    }

    /// The faults whose trigger `progress` reaches, removed from the pending list.
    private mutating func firedFaults(at progress: UploadProgress) -> [SimFault] {
        let fired = pendingFaults.filter { $0.trigger?.isReached(by: progress) == true }
        pendingFaults.removeAll { $0.trigger?.isReached(by: progress) == true }
        // A reboot wins: once the device is dead, the others cannot happen.
        return fired.sorted { rank($0) < rank($1) }
    }

    private func rank(_ fault: SimFault) -> Int {
        switch fault {
        case .reboot: return 0
        case .disconnect: return 1
        default: return 2
        }
    }

    /// One reply as notifications of at most `size` bytes (Zephyr `smp_bt_tx_pkt`), with the
    /// pending reply fault applied, then a reply a `reorder@` fault held back.
    private mutating func notifications(for packet: [UInt8], size: Int?) -> [Action] {
        var bytes = packet
        var delay: Duration = .zero
        var tag: NotificationFault?
        var copies = 1
        if let fault = replyFault {
            replyFault = nil
            switch fault {
            case .stall: return []
            case .corrupt:
                if let last = bytes.indices.last { bytes[last] ^= 0xFF }
                tag = .corrupted
            case .duplicate:
                copies = 2
                tag = .duplicated
            case .reorder:
                // Goes out after the next reply instead (a second reorder before then sends it).
                let earlier = heldReply
                heldReply = bytes
                return earlier.map { Self.split($0, size: size, after: .zero, fault: .reordered) } ?? []
            case .truncate(_, let cut):
                // The header (with the full length) stays: the body comes short.
                bytes.removeLast(min(cut, max(0, bytes.count - SMPRequestHeader.size)))
                tag = .truncated
            case .delay(_, let by):
                delay = by
                tag = .delayed
            case .reboot, .disconnect, .busy, .dropLink, .rebootAtRequest, .silent, .outage, .battery:
                break
            }
        }
        var out: [Action] = []
        for _ in 0 ..< copies { out += Self.split(bytes, size: size, after: delay, fault: tag) }
        if let held = heldReply {
            heldReply = nil
            out += Self.split(held, size: size, after: delay, fault: .reordered)
        }
        return out
    }

    /// A packet as notifications of at most `size` bytes (one datagram when `size` is nil).
    private static func split(_ bytes: [UInt8], size: Int?, after delay: Duration, fault: NotificationFault?) -> [Action] {
        let chunk = max(1, size ?? bytes.count)
        var out: [Action] = []
        var start = 0
        repeat {
            let end = min(start + chunk, bytes.count)
            out.append(.notify(Array(bytes[start ..< end]), after: delay, fault: fault))
            start = end
        } while start < bytes.count
        return out
    }

    /// Reset: the link drops, RAM is lost, MCUboot runs (swap, revert or nothing) and the
    /// application starts again after the report's duration.
    mutating func reboot(at time: MonotonicInstant, into actions: inout [Action]) {
        if connection != nil {
            connection = nil
            actions.append(.dropLink(.reboot))
        }
        replyFault = nil
        heldReply = nil
        server.loseRAM()
        let report = server.bootloader.boot()
        boots.append(report)
        let until = time.advanced(by: report.duration)
        power = .booting(until: until)
        actions.append(.rebooting(until: until, report: report))
    }
}
