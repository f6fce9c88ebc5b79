@testable import DFUCore

/// The core, fed one event at a time, and what is checked of what it does.
extension TransferExchange {
    mutating func feed(_ event: NordicTransferCore.Event) {
        let before = core.state
        var answer: NordicResponse?
        if case .controlPointNotification(let bytes) = event {
            answer = try? NordicResponse(decoding: bytes)
            if let answer { observe(answer, before: before) }
        }
        let actions = core.handle(event, now: now)
        if finished {
            require(actions.isEmpty, "\(actions.count) actions after the end")
            return
        }
        var writes = 0
        var written: [[UInt8]]?
        for action in actions {
            switch action {
            case .writeControlPoint(let bytes):
                writes += 1
                require(linkUp, "a Control Point write while the link is down")
                controlPoint.append(bytes)
                wrote(bytes, answering: answer)
            case .writePackets(let packets):
                require(written == nil, "two batches in one event")
                require(linkUp, "packets written while the link is down")
                written = packets
                batches.append(packets)
            case .timer:
                break
            case .progress(let progress):
                require(progress.total == UInt64(firmware.count) && progress.acknowledged <= progress.total, "progress \(progress)")
            case .reconnect:
                require(!linkUp, "reconnect while the link is up")
                awaitingLink = true
            case .completed(let completion):
                end()
                require(initPacketExecuted, "completed before the init packet's Execute was answered with success")
                switch completion {
                case .validated:
                    require(answer?.opcode == .execute && answer?.outcome == .success(.none) && awaitsFinalExecute(before),
                            "completed(validated) without the success answer to the final Execute")
                case .unconfirmed:
                    require(event == .linkLost && awaitsFinalExecute(before),
                            "completed(unconfirmed) without the link lost under the final Execute")
                }
            case .failed(let error):
                end()
                switch error {
                case .localProtocolViolation, .invalidJob: require(false, "failed with \(error)")
                default: _ = error.description
                }
            }
        }
        require(writes <= 1, "\(writes) Control Point requests in one event")
        if let written { check(written) }
        require(finished == core.isFinished, "the core's end and its actions disagree")
    }

    func awaitsFinalExecute(_ state: NordicTransferCore.State) -> Bool {
        switch state {
        case .waiting(.executeData(let object, _), _), .refusedWrite(.executeData(let object, _), _, _):
            return object.end == firmware.count
        default:
            return false
        }
    }

    /// What the core was told, by the request it was waiting for.
    mutating func observe(_ answer: NordicResponse, before: NordicTransferCore.State) {
        if case .waiting(.executeCommand, _) = before, answer.opcode == .execute, answer.outcome == .success(.none) {
            initPacketExecuted = true
        }
        let type: NordicObjectType
        switch before {
        case .waiting(.selectCommand, _), .waiting(.checksumCommand, _): type = .command
        case .waiting(.selectData, _), .waiting(.checksumData, _), .streaming(_, _, true, _): type = .data
        default: return
        }
        let blob = type == .command ? initPacket : firmware
        switch answer.outcome {
        case .success(.objectInfo(let info)):
            givenMaxSize[type] = Int(info.maxSize)
            if Int(info.offset) <= blob.count, info.crc == rightCRC(type, Int(info.offset)) {
                rightOffsets[type, default: []].insert(Int(info.offset))
            }
        case .success(.checksum(let checksum)):
            if Int(checksum.offset) <= blob.count, checksum.crc == rightCRC(type, Int(checksum.offset)) {
                rightOffsets[type, default: []].insert(Int(checksum.offset))
            }
        default:
            break
        }
    }

    /// A Control Point request of the core: Creates within the device's max size, Executes only after a matching CRC.
    func wrote(_ bytes: [UInt8], answering answer: NordicResponse?) {
        guard let request = NordicRequest(decoding: bytes) else {
            require(false, "a Control Point write no request decodes from: \(bytes)")
            return
        }
        switch (request, core.state) {
        case (.create(.command, let size), _):
            require(Int(size) == initPacket.count && Int(size) <= givenMaxSize[.command] ?? 0,
                    "Create command of \(size) bytes (init packet \(initPacket.count), max \(givenMaxSize[.command] ?? 0))")
        case (.create(.data, let size), .waiting(.createData(let object), _)):
            let maxSize = givenMaxSize[.data] ?? 0
            require(size > 0 && Int(size) == object.size && Int(size) <= maxSize && object.start == object.index * maxSize
                    && object.end <= firmware.count, "Create data of \(size) bytes for \(object), max \(maxSize)")
        case (.create, _):
            require(false, "a Create while the core waits for \(core.state.name)")
        case (.execute, .waiting(.executeCommand, _)):
            requireMatch(answer, type: .command, end: initPacket.count)
        case (.execute, .waiting(.executeData(let object, _), _)):
            let maxSize = givenMaxSize[.data] ?? 0
            require(object.end == firmware.count || (maxSize > 0 && object.end % maxSize == 0), "Execute of \(object), max \(maxSize)")
            requireMatch(answer, type: .data, end: object.end)
        case (.execute, _):
            require(false, "an Execute while the core waits for \(core.state.name)")
        default:
            break
        }
    }

    /// The answer that led to an Execute: a checksum or Select at the object's end, with the CRC of the bytes up to it.
    func requireMatch(_ answer: NordicResponse?, type: NordicObjectType, end: Int) {
        let blob = type == .command ? initPacket : firmware
        let reported: (offset: UInt32, crc: UInt32)?
        switch answer?.outcome {
        case .success(.checksum(let checksum))?: reported = (checksum.offset, checksum.crc)
        case .success(.objectInfo(let info))?: reported = (info.offset, info.crc)
        default: reported = nil
        }
        guard let reported else {
            require(false, "Execute of the \(type) to \(end), not in answer to a checksum or Select")
            return
        }
        require(Int(reported.offset) == end && end <= blob.count && reported.crc == rightCRC(type, end),
                "Execute of the \(type) to \(end) after the device reported offset \(reported.offset), CRC \(reported.crc)")
    }

    /// A batch of packets: inside its object and the bytes, their bytes, from where the transfer is.
    mutating func check(_ packets: [[UInt8]]) {
        guard case .streaming(let object, let batchEnd, _, _) = core.state else {
            require(false, "packets written while the core waits for \(core.state.name)")
            return
        }
        let blob = object.type == .command ? initPacket : firmware
        let total = packets.reduce(0) { $0 + $1.count }
        let start = batchEnd - total
        require(!packets.isEmpty && packets.allSatisfy { !$0.isEmpty && $0.count <= packetSize },
                "packets of \(packets.map(\.count)) bytes, packet size \(packetSize)")
        require(object.start <= start && batchEnd <= object.end && object.end <= blob.count,
                "a batch \(start)..<\(batchEnd) of \(object) in \(blob.count) bytes")
        require(packets.joined().elementsEqual(blob[start ..< batchEnd]), "a batch \(start)..<\(batchEnd) without its bytes")
        require(start == object.start || start == lastBatchEnd[object.type] || rightOffsets[object.type, default: []].contains(start),
                "a batch from \(start), neither the start of \(object), the last batch's end nor an offset the device confirmed")
        if object.type == .data {
            require(object.size <= givenMaxSize[.data] ?? 0, "\(object) larger than the device's max size \(givenMaxSize[.data] ?? 0)")
        }
        lastBatchEnd[object.type] = batchEnd
    }
}
