import Transport

/// Nordic Secure DFU transfer (init packet, then firmware) as a value-type state machine
/// (sans-I/O). The driver feeds Control Point notifications, packet acceptances, link changes and
/// wake-ups into `handle(_:now:)` and carries out the returned actions in order.
///
/// The device is the source of truth: every Select and checksum answer is compared with the local
/// CRC-32 of the same prefix, and the transfer continues from what the device holds
/// (nordic-secure-dfu.md §3.3, §3.4 with the §10 corrections).
///
///     state               event / answer                            next / actions
///     ready               start (bad job or configuration)          failed(invalidJob)
///     ready               start                                     Select command
///     Select command      offset 0, or CRC of the .dat prefix       Set PRN 0 → Create command (fresh)
///                           differs, or offset > .dat length
///                         0 < offset < length, CRC matches          Set PRN 0 → stream the rest, no Create
///                         offset == length, CRC matches             Execute command (resumed)
///                         .dat larger than max_size                 failed(initPacketTooLarge)
///     Create command      success                                   stream the whole .dat (PRN off)
///     streaming command   packets accepted                          Calculate Checksum
///     Checksum command    offset == length, CRC matches             Execute command
///                         anything else (a retry)                   Create command again
///     Execute command     success                                   Set PRN n → Select data
///                         08 after a resumed Select (a retry)       Create command again
///                         any other refusal                         failed(initPacketRejected)
///     Select data         CRC matches, offset == image length       Execute (final)
///                         CRC matches, inside an object             stream the object's rest, no Create
///                         CRC matches, offset on a boundary > 0     Execute that object (resumed: 08 = done)
///                         CRC matches, offset 0                     Create data object 0
///                         CRC differs (a retry)                     Create the current object again
///     Create data         success                                   stream a batch: PRN n packets, or the
///                                                                   whole object with PRN off
///     streaming data      PRN: offset == batch end, CRC matches     next batch, or Execute at the object end
///                         packets accepted, no PRN due              Calculate Checksum
///                         deadline, PRN due (a retry)               Calculate Checksum
///     PRN or Checksum     offset == object end, CRC matches         Execute
///                         offset < sent (packets lost)              PRN := 1 for the rest of the run, and:
///                           CRC matches (a retry)                   Set PRN 1 → stream from offset
///                         offset == sent after a missing PRN        Set PRN → stream from offset
///                         CRC differs (a retry)                     (Set PRN 1 →) Create the object again
///     after the answer    the next notification is a Checksum       noted (latePRNs), nothing else: the PRN
///      to a checksum a      success equal to that answer, or with   came after receiptTimeout, ahead of the
///      missing PRN asked    offset in the object ≤ sent and our     answer (the bootloader's queue is in
///      for, waiting for     CRC up to it                            order); anything else as ever (a
///      another opcode                                               violation unless it answers that opcode)
///     Execute data        success, more to send                     Create the next object
///                         success after the last object             completed(validated)
///                         08 after a resumed Select                 as success (already executed, §3.4)
///                         08 otherwise (a retry)                    Create the object again
///                         refusal of the final Execute              failed(validationFailed)
///     waiting (any)       answer to another opcode, bad length,     failed(remoteProtocolViolation)
///      streaming          unsolicited notification, max_size 0 or
///                         huge, offset beyond object/image/sent
///                         other refusal                             failed(refused)
///                         response deadline                         failed(timeout)
///     waiting             ATT error on its Control Point write      refusedWrite (is the link going down?)
///     refusedWrite        linkLost before linkVerdictDelay          as linkLost while waiting (below)
///                         deadline, the link still up               failed(controlPointWriteRejected)
///     waiting, streaming  linkLost during the final Execute         completed(unconfirmed)
///                         linkLost (a retry)                        parked; reconnect
///     parked              linkRestored(packetSize)                  Select command (resume, Select is truth)
///     parked              deadline                                  failed(linkNotRestored)
///     completed, failed   any event                                 —
///     any other (state, event)                                      failed(localProtocolViolation)
///
/// "A retry" spends one of the object's `retriesPerObject`; the next failure after the last of
/// them ends the run with `retriesExhausted`. After the first lost packet the data PRN is 1 for
/// the rest of the run (as Android does): losses come from a bootloader whose buffers overflow,
/// and stopping after every packet lets it keep up. Every Set PRN and Create also restarts the
/// device's PRN counter, so a batch always starts where the counter does.
///
/// After any event `.timer(at:)` is returned when the earliest deadline changed.
public struct NordicTransferCore: Sendable {
    /// The largest max_size a Select may report: nRF5 bootloaders use 4 KiB data objects and
    /// command objects of at most 512 bytes, so anything above 64 KiB is a broken device.
    public static let maxObjectSize: UInt32 = 65_536

    public let configuration: NordicTransferConfiguration
    public internal(set) var progress: AcknowledgedProgress
    public internal(set) var statistics = NordicTransferStatistics()
    /// The PRN value data objects use now: the configured one, 1 after the first loss.
    public internal(set) var dataPRN: UInt16
    /// Read by the state's own file; changed only here.
    var state: State = .ready
    let initPacket: NordicPrefixCRC
    let firmware: NordicPrefixCRC
    var packetSize: Int
    /// The data object max_size of the last Select.
    var dataObjectSize = 0
    /// The PRN value set on this link (nil: not yet, the device's is unknown).
    var devicePRN: UInt16?
    /// End of what was written into the current object.
    var sent = 0
    /// The furthest `sent` reached in the current data object: after a resend from the device's
    /// offset, packets that were late (overtaken by the checksum request over several ATT bearers)
    /// may still arrive, and a checksum up to here with our CRC is theirs, not a lie.
    var sentHighWater = 0
    /// Whether the data object was selected before (`progress.startOffset` is set at the first).
    var dataSelected = false
    /// `writePackets` actions whose acceptance the driver has not reported yet.
    var unacceptedBatches = 0
    /// Open from the answer to a checksum a missing PRN asked for until the next notification.
    var latePRNWindow: LatePRNWindow?
    /// The object a lost link counts against.
    var currentObject: NordicTransferObject
    var budget: NordicRetryBudget
    var announcedDeadline: MonotonicInstant?

    public init(initPacket: [UInt8], firmware: [UInt8], configuration: NordicTransferConfiguration) {
        self.configuration = configuration
        self.initPacket = NordicPrefixCRC(initPacket)
        self.firmware = NordicPrefixCRC(firmware)
        packetSize = configuration.packetSize
        dataPRN = configuration.packetReceiptNotification
        progress = AcknowledgedProgress(acknowledged: 0, total: UInt64(firmware.count))
        currentObject = .command(length: initPacket.count)
        budget = NordicRetryBudget(retries: configuration.retriesPerObject)
    }

    public mutating func handle(_ event: Event, now: MonotonicInstant) -> [Action] {
        var actions: [Action] = []
        // A late PRN can only be the very next notification on this link.
        var latePRN: LatePRNWindow?
        switch event {
        case .controlPointNotification, .linkLost: (latePRN, latePRNWindow) = (latePRNWindow, nil)
        default: break
        }
        switch (state, event) {
        case (.ready, .start):
            start(now: now, into: &actions)
        case (.waiting(let pending, _), .controlPointNotification(let bytes)):
            guard let response = decode(bytes, into: &actions) else { break }
            if let latePRN, isLatePRN(response, window: latePRN, pending: pending) {
                statistics.latePRNs += 1
            } else {
                answered(pending, response, now: now, into: &actions)
            }
        case (.streaming(let object, _, let expectsPRN, _), .controlPointNotification(let bytes)):
            if let response = decode(bytes, into: &actions) {
                notified(response, object: object, expectsPRN: expectsPRN, now: now, into: &actions)
            }
        case (.waiting, .packetsAccepted) where unacceptedBatches > 0:
            unacceptedBatches -= 1
        case (.streaming(let object, let batchEnd, let expectsPRN, _), .packetsAccepted) where unacceptedBatches > 0:
            unacceptedBatches -= 1
            if unacceptedBatches == 0 { accepted(object, batchEnd: batchEnd, expectsPRN: expectsPRN, now: now, into: &actions) }
        case (.waiting(let pending, let until), .timerFired):
            if now >= until {
                fail(.timeout(waitingFor: "\(pending.request)", after: configuration.responseTimeout), into: &actions)
            }
        case (.streaming(let object, _, _, let until), .timerFired):
            if now >= until { streamTimedOut(object, now: now, into: &actions) }
        case (.parked(let until), .timerFired):
            if now >= until { fail(.linkNotRestored(after: configuration.linkRestoreTimeout), into: &actions) }
        case (.waiting(let pending, _), .controlPointWriteRejected(let code)):
            state = .refusedWrite(pending, attError: code, until: now + configuration.linkVerdictDelay)
        case (.streaming, .controlPointWriteRejected(let code)):
            fail(.controlPointWriteRejected(attError: code), into: &actions)
        case (.refusedWrite(_, let code, let until), .timerFired):
            if now >= until { fail(.controlPointWriteRejected(attError: code), into: &actions) }
        case (.refusedWrite, .packetsAccepted) where unacceptedBatches > 0:
            unacceptedBatches -= 1
        case (.refusedWrite, .controlPointNotification):
            break // the refused request was not taken: nothing it answers is awaited
        case (.waiting, .linkLost), (.streaming, .linkLost), (.refusedWrite, .linkLost):
            linkLost(now: now, into: &actions)
        case (.parked, .linkRestored(let size)):
            restore(packetSize: size, now: now, into: &actions)
        case (.parked, .linkLost), (.parked, .packetsAccepted), (.ready, .timerFired), (.completed, _), (.failed, _):
            break // a lost link's last acceptances, early wake-ups, and anything after the end
        case (.ready, _), (.waiting, _), (.streaming, _), (.refusedWrite, _), (.parked, _):
            fail(.localProtocolViolation(event: event.name, state: state.name), into: &actions)
        }
        if nextDeadline != announcedDeadline {
            announcedDeadline = nextDeadline
            actions.append(.timer(at: announcedDeadline))
        }
        return actions
    }

    // MARK: - Starting and resuming

    mutating func start(now: MonotonicInstant, into actions: inout [Action]) {
        if let problem = jobProblem ?? configuration.problem {
            fail(.invalidJob(problem), into: &actions)
            return
        }
        actions.append(.progress(progress))
        send(.selectCommand, now: now, into: &actions)
    }

    var jobProblem: String? {
        let length = firmware.bytes.count
        if initPacket.bytes.isEmpty { return "the init packet (.dat) is empty" }
        if length == 0 { return "the firmware (.bin) is empty" }
        if length % 4 != 0 {
            return "the firmware is \(length) bytes, not a multiple of 4, and the bootloader drops writes that are not; pad the .bin with 0xFF as nrfutil does"
        }
        if length > Int(UInt32.max) || initPacket.bytes.count > Int(UInt32.max) { return "the firmware or init packet exceeds 4 GiB" }
        return nil
    }

    /// The final Execute went out and is not answered yet: the bootloader validates, answers and
    /// resets by itself.
    var awaitsFinalExecute: Bool {
        switch state {
        case .waiting(.executeData(let object, _), _), .refusedWrite(.executeData(let object, _), _, _):
            return object.end == firmware.bytes.count
        default:
            return false
        }
    }

    mutating func linkLost(now: MonotonicInstant, into actions: inout [Action]) {
        // The bootloader resets right after answering the final Execute: the answer may not get out.
        if awaitsFinalExecute {
            complete(.unconfirmed, into: &actions)
            return
        }
        statistics.linkLosses += 1
        unacceptedBatches = 0
        devicePRN = nil
        guard spendRetry(currentObject, into: &actions) else { return }
        state = .parked(until: now + configuration.linkRestoreTimeout)
        actions.append(.reconnect)
    }

    /// Every resume starts from Select command, whatever the state before the loss: SDK 16/17
    /// reload their settings on disconnect, so only the device can say what survived (§10.2).
    mutating func restore(packetSize size: Int, now: MonotonicInstant, into actions: inout [Action]) {
        if let problem = NordicTransferConfiguration.problem(packetSize: size) {
            fail(.invalidJob(problem), into: &actions)
            return
        }
        packetSize = size
        send(.selectCommand, now: now, into: &actions)
    }

    // MARK: - Answers

    mutating func decode(_ bytes: [UInt8], into actions: inout [Action]) -> NordicResponse? {
        do {
            return try NordicResponse(decoding: bytes)
        } catch {
            fail(.remoteProtocolViolation(.malformed(error)), into: &actions)
            return nil
        }
    }

    mutating func answered(_ pending: Pending, _ response: NordicResponse, now: MonotonicInstant,
                                   into actions: inout [Action]) {
        guard response.opcode == pending.request.opcode else {
            violation(.unexpectedResponse(expected: pending.request.opcode, received: response.opcode), into: &actions)
            return
        }
        let payload: NordicResponse.Payload
        switch response.outcome {
        case .failure(let error):
            refused(pending, error, now: now, into: &actions)
            return
        case .success(let body):
            payload = body
        }
        switch (pending, payload) {
        case (.selectCommand, .objectInfo(let info)):
            selectedCommand(info, now: now, into: &actions)
        case (.setPRN(let value, let next), .none):
            devicePRN = value
            proceed(next, now: now, into: &actions)
        case (.createCommand, .none):
            stream(.command(length: initPacket.bytes.count), from: 0, now: now, into: &actions)
        case (.checksumCommand, .checksum(let checksum)):
            checkedCommand(checksum, now: now, into: &actions)
        case (.executeCommand, .none):
            ensurePRN(dataPRN, then: .selectData, now: now, into: &actions)
        case (.selectData, .objectInfo(let info)):
            selectedData(info, now: now, into: &actions)
        case (.createData(let object), .none):
            stream(object, from: object.start, now: now, into: &actions)
        case (.checksumData(let object, let afterMissingPRN), .checksum(let checksum)):
            if afterMissingPRN {
                latePRNWindow = LatePRNWindow(object: object, answer: checksum, sentLimit: max(sent, sentHighWater))
            }
            checkedData(checksum, object: object, afterMissingPRN: afterMissingPRN, now: now, into: &actions)
        case (.executeData(let object, _), .none):
            executed(object, now: now, into: &actions)
        default:
            // Unreachable: the decoder ties each payload to its opcode. Still no trap.
            violation(.unexpectedResponse(expected: pending.request.opcode, received: response.opcode), into: &actions)
        }
    }

    /// A notification while packets flow: only a due PRN may come.
    mutating func notified(_ response: NordicResponse, object: NordicTransferObject, expectsPRN: Bool,
                                   now: MonotonicInstant, into actions: inout [Action]) {
        guard expectsPRN else {
            violation(.unsolicitedNotification(response.opcode), into: &actions)
            return
        }
        guard response.opcode == .calculateChecksum else {
            violation(.unexpectedResponse(expected: .calculateChecksum, received: response.opcode), into: &actions)
            return
        }
        switch response.outcome {
        case .success(.checksum(let checksum)):
            checkedData(checksum, object: object, afterMissingPRN: false, now: now, into: &actions)
        case .failure(let error) where error.result == .invalidParameter && object.type == .data:
            // A Packet write overflowed the object (reference §3.1: 03). We never write past an
            // object's end, so packets sent before its Create landed after it: reordered (BlueZ
            // spreads writes over several ATT bearers with EATT). Start the object again, one
            // packet per receipt from now on, as after a CRC mismatch.
            statistics.objectOverflows += 1
            dataPRN = 1
            recreate(object, now: now, into: &actions)
        case .failure(let error):
            fail(.refused(.calculateChecksum, error), into: &actions)
        case .success:
            violation(.unexpectedResponse(expected: .calculateChecksum, received: response.opcode), into: &actions)
        }
    }

    mutating func refused(_ pending: Pending, _ error: NordicRemoteError, now: MonotonicInstant,
                                  into actions: inout [Action]) {
        let notPermitted = error.result == .operationNotPermitted
        switch pending {
        case .executeCommand(resumed: true) where notPermitted:
            // The device holds bytes it cannot execute (another declared size): start the object over.
            recreate(.command(length: initPacket.bytes.count), now: now, into: &actions)
        case .executeCommand:
            fail(.initPacketRejected(error), into: &actions)
        case .executeData(let object, _) where object.end == firmware.bytes.count:
            fail(.validationFailed(error), into: &actions)
        case .executeData(let object, resumed: true) where notPermitted:
            // §3.4/§10.1: 08 here means the object was executed and the next one created, unfilled.
            executed(object, now: now, into: &actions)
        case .executeData(let object, resumed: false) where notPermitted:
            recreate(object, now: now, into: &actions)
        default:
            fail(.refused(pending.request, error), into: &actions)
        }
    }

}
