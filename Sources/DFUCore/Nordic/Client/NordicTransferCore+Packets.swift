import Transport

/// The transfer core's writing side: packet batches and their acceptance, Control Point requests
/// (with the PRN value they need first), and the bookkeeping every transition shares (retries,
/// progress, the end of the run). The state machine's decisions are in `NordicTransferCore.swift`.
extension NordicTransferCore {
    // MARK: - Packets

    mutating func stream(_ object: NordicTransferObject, from offset: Int, now: MonotonicInstant,
                                 into actions: inout [Action]) {
        currentObject = object
        sent = offset
        sendBatch(object, now: now, into: &actions)
    }

    /// Writes from `sent`: with PRN n, n packets (fewer at the object's end) and a PRN is due when
    /// all n were written; with PRN off, the rest of the object.
    mutating func sendBatch(_ object: NordicTransferObject, now: MonotonicInstant, into actions: inout [Action]) {
        let blob = object.type == .command ? initPacket.bytes : firmware.bytes
        let prn = object.type == .command ? 0 : Int(devicePRN ?? 0)
        let remaining = object.end - sent
        guard remaining > 0 else {
            send(object.type == .command ? .checksumCommand : .checksumData(object, afterMissingPRN: false), now: now, into: &actions)
            return
        }
        let packetsLeft = (remaining + packetSize - 1) / packetSize
        let count = prn == 0 ? packetsLeft : min(prn, packetsLeft)
        let batchEnd = min(sent + count * packetSize, object.end)
        let packets = stride(from: sent, to: batchEnd, by: packetSize).map {
            Array(blob[$0 ..< min($0 + packetSize, batchEnd)])
        }
        statistics.packetsSent += packets.count
        statistics.bytesSent += batchEnd - sent
        sent = batchEnd
        if object.type == .data { sentHighWater = max(sentHighWater, sent) }
        unacceptedBatches += 1
        state = .streaming(object, batchEnd: batchEnd, expectsPRN: prn != 0 && count == prn,
                           until: now + configuration.responseTimeout)
        actions.append(.writePackets(packets))
    }

    mutating func accepted(_ object: NordicTransferObject, batchEnd: Int, expectsPRN: Bool,
                                   now: MonotonicInstant, into actions: inout [Action]) {
        if expectsPRN {
            // The PRN's own deadline runs from when the last packet left.
            state = .streaming(object, batchEnd: batchEnd, expectsPRN: true, until: now + configuration.receiptTimeout)
        } else {
            send(object.type == .command ? .checksumCommand : .checksumData(object, afterMissingPRN: false), now: now, into: &actions)
        }
    }

    /// Packets are still unaccepted (the link is stuck) or a due PRN never came: a bootloader that
    /// drops a packet does not count it, so ask where it is.
    mutating func streamTimedOut(_ object: NordicTransferObject, now: MonotonicInstant, into actions: inout [Action]) {
        guard unacceptedBatches == 0 else {
            fail(.timeout(waitingFor: "the link to take the packets of \(object)", after: configuration.responseTimeout),
                 into: &actions)
            return
        }
        statistics.missingPRNs += 1
        guard spendRetry(object, into: &actions) else { return }
        send(.checksumData(object, afterMissingPRN: true), now: now, into: &actions)
    }

    // MARK: - Requests

    mutating func send(_ pending: Pending, now: MonotonicInstant, into actions: inout [Action]) {
        switch pending {
        case .createData(let object), .executeData(let object, _), .checksumData(let object, _): currentObject = object
        case .createCommand, .executeCommand, .checksumCommand: currentObject = .command(length: initPacket.bytes.count)
        case .selectCommand, .selectData, .setPRN: break
        }
        statistics.controlPointWrites += 1
        state = .waiting(pending, until: now + configuration.responseTimeout)
        actions.append(.writeControlPoint(pending.request.encoded))
    }

    /// Sets the device's PRN to `value` (nil: the data PRN, always sent, to restart the counter)
    /// unless this link already has it.
    mutating func ensurePRN(_ value: UInt16?, then next: AfterPRN, now: MonotonicInstant,
                                    into actions: inout [Action]) {
        if let value, devicePRN == value {
            proceed(next, now: now, into: &actions)
        } else {
            send(.setPRN(value ?? dataPRN, then: next), now: now, into: &actions)
        }
    }

    mutating func proceed(_ next: AfterPRN, now: MonotonicInstant, into actions: inout [Action]) {
        switch next {
        case .createCommand: send(.createCommand(size: UInt32(initPacket.bytes.count)), now: now, into: &actions)
        case .streamCommand(let offset): stream(.command(length: initPacket.bytes.count), from: offset, now: now, into: &actions)
        case .selectData: send(.selectData, now: now, into: &actions)
        case .streamData(let object, let offset): stream(object, from: offset, now: now, into: &actions)
        case .createData(let object):
            // The device rolls back to the object's start: nothing of it is there any more.
            sentHighWater = object.start
            send(.createData(object), now: now, into: &actions)
        }
    }

    /// A retry of `object` from its start with a new Create (which rolls the device back to the
    /// last executed object and restarts its PRN counter).
    /// `alreadySpent`: the failure that led here was counted (a missing PRN).
    mutating func recreate(_ object: NordicTransferObject, alreadySpent: Bool = false, now: MonotonicInstant,
                                   into actions: inout [Action]) {
        if !alreadySpent { guard spendRetry(object, into: &actions) else { return } }
        statistics.objectsRecreated += 1
        if object.type == .command {
            ensurePRN(0, then: .createCommand, now: now, into: &actions)
        } else {
            ensurePRN(dataPRN, then: .createData(object), now: now, into: &actions)
        }
    }

    // MARK: - Bookkeeping

    /// Counts a failure of `object`; false (and the transfer failed) once its retries are spent.
    mutating func spendRetry(_ object: NordicTransferObject, into actions: inout [Action]) -> Bool {
        guard let attempts = budget.spend(object.budgetKey) else { return true }
        fail(.retriesExhausted(object: "\(object)", attempts: attempts), into: &actions)
        return false
    }

    mutating func acknowledge(_ offset: Int, into actions: inout [Action]) {
        let value = UInt64(offset)
        guard value != progress.acknowledged else { return }
        progress.acknowledged = value
        actions.append(.progress(progress))
    }

    mutating func violation(_ violation: NordicProtocolViolation, into actions: inout [Action]) {
        fail(.remoteProtocolViolation(violation), into: &actions)
    }

    mutating func complete(_ completion: NordicTransferCompletion, into actions: inout [Action]) {
        state = .completed
        actions.append(.completed(completion))
    }

    mutating func fail(_ error: NordicTransferError, into actions: inout [Action]) {
        guard !isFinished else { return }
        state = .failed(error)
        actions.append(.failed(error))
    }
}
