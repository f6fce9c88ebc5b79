import Transport

/// The transfer core's state, one enum with payloads, and what each state means to a driver. The
/// transitions are in `NordicTransferCore.swift`, with their table.
extension NordicTransferCore {
    enum State: Sendable {
        case ready
        /// One Control Point request is outstanding; `Pending` says which, and what its answer leads to.
        case waiting(Pending, until: MonotonicInstant)
        /// Packets of `object` up to `batchEnd` are written; `expectsPRN` when the last of them makes a
        /// PRN due. Without PRN the batch runs to the object's end and the link's acceptance ends it.
        case streaming(NordicTransferObject, batchEnd: Int, expectsPRN: Bool, until: MonotonicInstant)
        /// The link refused the Control Point write for `pending` with an ATT error. A link going
        /// down answers a write that way before its loss is reported (bluetoothd: 0x0E, tens of
        /// milliseconds ahead), so the refusal stands only if the link is still up at the instant.
        case refusedWrite(Pending, attError: UInt8, until: MonotonicInstant)
        /// The link is gone; wait for a new one until the instant.
        case parked(until: MonotonicInstant)
        case completed
        case failed(NordicTransferError)
    }

    /// The outstanding request.
    enum Pending: Sendable, Hashable {
        case selectCommand
        case setPRN(UInt16, then: AfterPRN)
        case createCommand(size: UInt32)
        case checksumCommand
        /// `resumed`: the device already held the whole init packet (Select said so).
        case executeCommand(resumed: Bool)
        case selectData
        case createData(NordicTransferObject)
        /// `afterMissingPRN`: asked because a due PRN did not come (its retry is already spent).
        case checksumData(NordicTransferObject, afterMissingPRN: Bool)
        /// `resumed`: Select put the device at this object's end, so it may have executed it already.
        case executeData(NordicTransferObject, resumed: Bool)

        var request: NordicRequest {
            switch self {
            case .selectCommand: return .select(.command)
            case .setPRN(let value, _): return .setPRN(value)
            case .createCommand(let size): return .create(.command, size: size)
            case .checksumCommand, .checksumData: return .calculateChecksum
            case .executeCommand, .executeData: return .execute
            case .selectData: return .select(.data)
            case .createData(let object): return .create(.data, size: UInt32(clamping: object.size))
            }
        }
    }

    /// Where a Set PRN leads once the device confirms it.
    enum AfterPRN: Sendable, Hashable {
        case createCommand
        case streamCommand(from: Int)
        case selectData
        case streamData(NordicTransferObject, from: Int)
        case createData(NordicTransferObject)
    }

    /// The earliest instant the core wants a `timerFired` (quinn's `poll_timeout`).
    public var nextDeadline: MonotonicInstant? {
        switch state {
        case .waiting(_, let until), .streaming(_, _, _, let until), .refusedWrite(_, _, let until), .parked(let until):
            return until
        case .ready, .completed, .failed: return nil
        }
    }

    public var isFinished: Bool {
        switch state {
        case .completed, .failed: return true
        case .ready, .waiting, .streaming, .refusedWrite, .parked: return false
        }
    }

    /// The failure that ended the transfer, if any.
    public var failure: NordicTransferError? {
        if case .failed(let error) = state { return error }
        return nil
    }
}

extension NordicTransferCore.State {
    var name: String {
        switch self {
        case .ready: return "ready"
        case .waiting(let pending, _): return "waiting for the answer to \(pending.request.opcode)"
        case .streaming(let object, _, _, _): return "streaming \(object)"
        case .refusedWrite(let pending, let code, _):
            return "checking the link after ATT error 0x\(hexDigits(code, width: 2)) on \(pending.request.opcode)"
        case .parked: return "parked (link lost)"
        case .completed: return "completed"
        case .failed: return "failed"
        }
    }
}
