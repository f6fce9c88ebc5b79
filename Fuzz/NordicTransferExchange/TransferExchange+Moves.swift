@testable import DFUCore
import Transport

/// Max sizes a lying Select may report: unusable, odd, small, the usual, past the core's limit.
private let forgedMaxSizes: [UInt32] = [0, 3, 4, 20, 64, 512, 4096, 65_536, 65_540, 0xFFFF_FFFF]

/// The bootloader's and the link's moves, one an input byte (its parameters after it).
extension TransferExchange {
    mutating func move(_ input: inout FuzzInput) {
        let code = input.byte() % 16
        guard linkUp else {
            switch code {
            case 5: silence()
            case 6: wait(.milliseconds(50 * Int(input.byte())))
            case 7: if awaitingLink { restore(packetSize: 20 + 4 * (Int(input.byte()) % 60)) }
            default: honestStep()
            }
            return
        }
        switch code {
        case 1:
            forgeInfo(&input)
        case 2:
            let result = input.byte()
            let extended = input.byte()
            let applied = input.byte() & 1 == 0
            guard let request = controlPoint.first else { return honestStep() }
            controlPoint.removeFirst()
            if applied { _ = device.handle(request) }
            notify([NordicOpcode.responseCode, request.first ?? 0, result] + (result == 0x0B ? [extended] : []))
        case 3:
            let head = input.take(3)
            notify(head + input.chunk())
        case 4:
            notify(input.chunk())
        case 5:
            silence()
        case 6:
            wait(.milliseconds(50 * Int(input.byte())))
        case 7:
            loseLink()
        case 8:
            let fault = input.byte()
            guard !batches.isEmpty else { return honestStep() }
            var batch = batches.removeFirst()
            let index = Int(fault >> 2) % batch.count
            switch fault & 3 {
            case 0: batch.remove(at: index)
            case 1: if !batch[index].isEmpty { batch[index][Int(fault) % batch[index].count] ^= 0x5A }
            case 2: batch[index] = Array(batch[index].dropLast(4))
            default: batch.insert(batch[index], at: index)
            }
            deliver(batch)
        case 9:
            // The link never takes this batch: no acceptance comes.
            let reaches = input.byte() & 1 == 0
            guard !batches.isEmpty else { return honestStep() }
            let batch = batches.removeFirst()
            if reaches { for packet in batch { _ = device.packet(packet) } }
        case 10:
            let code = input.byte()
            guard case .waiting = core.state, !controlPoint.isEmpty else { return honestStep() }
            controlPoint.removeLast()
            feed(.controlPointWriteRejected(attError: code))
        case 11:
            if !lastNotification.isEmpty { notify(lastNotification) }
        case 12:
            // A stray checksum: where the bootloader is, or the last notification again, as a late PRN is.
            let held = device.held
            notify(checksum(offset: held.count, crc: held.crc))
        case 13:
            let late = input.byte() & 1 == 0
            guard !batches.isEmpty else { return honestStep() }
            deliver(batches.removeFirst(), prns: late ? .late : .lost)
        case 14:
            // The bootloader handles the request; its answer is lost with the link.
            guard let request = controlPoint.first else { return honestStep() }
            controlPoint.removeFirst()
            _ = device.handle(request)
            loseLink()
        case 15:
            let swap = Int(input.byte())
            guard !batches.isEmpty else { return honestStep() }
            var batch = batches.removeFirst()
            if batch.count > 1 { batch.swapAt(swap % batch.count, (swap / batch.count + 1) % batch.count) }
            deliver(batch)
        default:
            honestStep()
        }
    }

    /// A Select or checksum answer to the oldest request with a chosen offset, CRC and max size.
    mutating func forgeInfo(_ input: inout FuzzInput) {
        let choice = input.byte()
        let raw = UInt32(input.uint16()) << 16 | UInt32(input.uint16())
        let delta = Int(Int8(bitPattern: input.byte()))
        let request = controlPoint.first.flatMap(NordicRequest.init(decoding:))
        if !controlPoint.isEmpty { _ = device.handle(controlPoint.removeFirst()) }
        var type = device.selected
        if case .select(let selected)? = request { type = selected }
        let blob = type == .command ? initPacket : firmware
        let held = device.held.count
        let offset: Int
        switch choice & 3 {
        case 0: offset = held
        case 1: offset = max(0, held + 4 * delta)
        case 2: offset = Int(raw)
        default: offset = blob.count
        }
        let crc: UInt32
        switch choice >> 2 & 3 {
        case 0: crc = rightCRC(type, offset)
        case 1: crc = device.heldCRC(upTo: offset)
        case 2: crc = rightCRC(type, offset) ^ 1
        default: crc = raw
        }
        let field = UInt32(clamping: offset)
        let asSelect: Bool
        switch request {
        case .select?: asSelect = true
        case nil: asSelect = choice & 0x80 == 0
        default: asSelect = false
        }
        if asSelect {
            let maxSize = choice & 0x40 == 0 ? UInt32(type == .command ? device.commandMax : device.dataMax)
                : forgedMaxSizes[Int(choice >> 4 & 3) + Int(raw % 7)]
            let info = NordicObjectInfo(maxSize: maxSize, offset: field, crc: crc)
            notify(NordicResponse(opcode: .selectObject, outcome: .success(.objectInfo(info))).encoded)
        } else {
            notify(checksum(offset: field, crc: crc))
        }
    }

    func checksum(offset: Int, crc: UInt32) -> [UInt8] {
        checksum(offset: UInt32(clamping: offset), crc: crc)
    }

    func checksum(offset: UInt32, crc: UInt32) -> [UInt8] {
        NordicResponse(opcode: .calculateChecksum, outcome: .success(.checksum(NordicChecksum(offset: offset, crc: crc)))).encoded
    }

    enum PRNs { case onTime, late, lost }

    /// The link takes a batch: the bootloader gets its packets, the core their acceptance and the PRNs.
    mutating func deliver(_ batch: [[UInt8]], prns: PRNs = .onTime) {
        var notifications: [[UInt8]] = []
        for packet in batch {
            if let notification = device.packet(packet) { notifications.append(notification) }
        }
        switch prns {
        case .onTime: break
        case .late: heldPRNs += notifications; notifications = []
        case .lost: notifications = []
        }
        if acceptFirst { feed(.packetsAccepted) }
        for notification in notifications { notify(notification) }
        if !acceptFirst && linkUp { feed(.packetsAccepted) }
    }

    /// The answer to a Control Point request, behind any PRN the bootloader still owed.
    mutating func answerControlPoint(_ answer: [UInt8]) {
        let late = heldPRNs
        heldPRNs = []
        for prn in late { notify(prn) }
        notify(answer)
    }

    mutating func notify(_ bytes: [UInt8]) {
        guard linkUp, !finished else { return }
        lastNotification = bytes
        now = now + .milliseconds(2)
        feed(.controlPointNotification(bytes))
    }

    mutating func loseLink() {
        linkUp = false
        controlPoint.removeAll()
        batches.removeAll()
        heldPRNs.removeAll()
        device.linkLost()
        feed(.linkLost)
    }

    mutating func restore(packetSize size: Int) {
        now = now + .seconds(1)
        linkUp = true
        awaitingLink = false
        packetSize = size
        lastBatchEnd = [:]
        feed(.linkRestored(packetSize: size))
    }
}
