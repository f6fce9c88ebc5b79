// A whole Nordic Secure DFU transfer (NordicTransferCore, as NordicSession drives it: init packet,
// then the firmware's data objects) against a bootloader whose every answer the input chooses.
// Four bytes choose the link (packet size, PRN, retries per object), the firmware (4 to 2,044
// bytes), the init packet (1 to 200 bytes) and the bootloader (object sizes, whether it keeps what
// it received over a lost link, PRN before or after the link takes the packets); then each byte
// is one move, its parameters after it: an honest step (the link takes the next batch, or the
// bootloader answers the next Control Point request), a Select or checksum answer at a chosen
// offset with the right, the device's or a wrong CRC and any max size, any result code and
// extended error, a malformed or unknown answer, garbage, a duplicate, a stray checksum (a late
// PRN), a lost, corrupted, shortened, repeated or reordered packet, a lost or late PRN, a link
// that never takes a batch, an ATT error on a Control Point write, silence (the clock jumps to
// the core's deadline), a wait, a lost link (before or after the bootloader handled a request)
// and a new one of any packet size. When the input ends the bootloader answers honestly, or falls
// silent, as the first byte says.
//
// Checked, beyond not crashing: one Control Point request at a time, each a request the wire
// format knows; every batch of packets lies inside its object, within the init packet or the
// firmware, carries their bytes at its offset, in packets no larger than the link's, and starts
// where an object starts, where the last batch ended, or at an offset the device reported with
// the right CRC; a Create is for the whole init packet or one data object, never larger than the
// max size of the device's last Select; an Execute goes out only in answer to a checksum or
// Select whose offset is the object's end and whose CRC matches the bytes up to it;
// completed(validated) only in the event of the success answer to the last object's Execute,
// completed(unconfirmed) only when the link went down with that Execute unanswered, both only
// after the init packet's Execute was answered with success; reconnect only with the link down;
// progress within the firmware; one end, nothing after it; a failure is a typed error, never the
// driver's bug (`localProtocolViolation`) or a bad job; after the input, the transfer ends
// within 50,000 honest moves or 1,000 deadlines.
//
// Not checked, because the core does not promise it: that a checksum offset is a multiple of 4
// (only Select's is checked; a device lying that way only gets packets it drops, then a retry),
// and that progress is an offset the device reported with the right CRC (an executed object
// counts as held after a mismatch: the device cannot lose it).
// libFuzzer options: -max_len=2048
@testable import DFUCore
import Transport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNordicTransferExchange(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    var exchange = TransferExchange(options: &input)
    exchange.run(&input)
    return 0
}

private let packetSizes = [20, 64, 128, 244]
private let receipts: [UInt16] = [0, 1, 2, 3, 4, 8, 12, 0]
private let dataMaxSizes = [64, 256, 1024, 4096]
private let commandMaxSizes = [256, 512, 128, 64]
/// Max sizes a lying Select may report: unusable, odd, small, the usual, past the core's limit.
private let forgedMaxSizes: [UInt32] = [0, 3, 4, 20, 64, 512, 4096, 65_536, 65_540, 0xFFFF_FFFF]

private struct TransferExchange {
    let initPacket: [UInt8]
    let firmware: [UInt8]
    /// CRC-32 of every prefix of the init packet and of the firmware (index: its length).
    let initPacketCRCs: [UInt32]
    let firmwareCRCs: [UInt32]
    let honestTail: Bool
    let acceptFirst: Bool
    let firstPacketSize: Int
    var core: NordicTransferCore
    var device: Bootloader
    var now = MonotonicInstant.zero
    var packetSize: Int
    var linkUp = true
    /// The core asked for a new link (`reconnect`).
    var awaitingLink = false
    /// Control Point writes the bootloader has not handled, oldest first.
    var controlPoint: [[UInt8]] = []
    /// Packet batches written and not yet taken by the link, oldest first.
    var batches: [[[UInt8]]] = []
    /// PRNs the bootloader sends ahead of its next Control Point answer (late).
    var heldPRNs: [[UInt8]] = []
    var lastNotification: [UInt8] = []
    /// What the core was told: the max sizes of the Selects it took, the offsets reported with the right CRC.
    var givenMaxSize: [NordicObjectType: Int] = [:]
    var rightOffsets: [NordicObjectType: Set<Int>] = [.command: [0], .data: [0]]
    var lastBatchEnd: [NordicObjectType: Int] = [:]
    /// The core saw its Execute of the init packet answered with success.
    var initPacketExecuted = false
    var finished = false

    init(options input: inout FuzzInput) {
        let link = input.byte()
        let words = input.byte()
        let datLength = input.byte()
        let device = input.byte()
        firstPacketSize = packetSizes[Int(link & 3)]
        packetSize = firstPacketSize
        honestTail = link & 0x80 == 0
        acceptFirst = device & 0x20 == 0
        firmware = exchangeBytes(count: 4 * (1 + Int(words) * 2), seed: 0x9E37_79B9_7F4A_7C15)
        initPacket = exchangeBytes(count: 1 + Int(datLength) % 200, seed: 0x2545_F491_4F6C_DD1D)
        firmwareCRCs = prefixCRCs(firmware)
        initPacketCRCs = prefixCRCs(initPacket)
        let configuration = NordicTransferConfiguration(packetSize: firstPacketSize,
                                                        packetReceiptNotification: receipts[Int(link >> 2 & 7)],
                                                        retriesPerObject: Int(link >> 5 & 3))
        core = NordicTransferCore(initPacket: initPacket, firmware: firmware, configuration: configuration)
        self.device = Bootloader(initPacket: initPacket, firmware: firmware, commandMax: commandMaxSizes[Int(device >> 2 & 3)],
                                 dataMax: dataMaxSizes[Int(device & 3)], keepsProgress: device & 0x10 != 0)
    }

    mutating func run(_ input: inout FuzzInput) {
        feed(.start)
        while !finished && !input.isEmpty { move(&input) }
        let limit = honestTail ? 50_000 : 1_000
        var moves = 0
        while !finished {
            moves += 1
            require(moves <= limit, "the transfer did not end \(limit) moves after the input")
            if honestTail { honestStep() } else { silence() }
        }
    }

    // MARK: - The bootloader's and the link's moves

    mutating func move(_ input: inout FuzzInput) {
        let code = input.byte() % 16
        guard linkUp else {
            switch code {
            case 5: silence()
            case 6: wait(input.byte())
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
            wait(input.byte())
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

    /// The link takes the next batch, else the bootloader answers the next request, else time passes.
    mutating func honestStep() {
        if awaitingLink {
            restore(packetSize: firstPacketSize)
        } else if !linkUp {
            silence()
        } else if !batches.isEmpty {
            deliver(batches.removeFirst())
        } else if !controlPoint.isEmpty {
            let answer = device.handle(controlPoint.removeFirst())
            answerControlPoint(answer)
            // After the final Execute the bootloader validates and resets.
            if device.validated && linkUp { loseLink() }
        } else {
            silence()
        }
    }

    /// The CRC-32 of the first `count` bytes of the init packet or the firmware (all of it past the end).
    func rightCRC(_ type: NordicObjectType, _ count: Int) -> UInt32 {
        let crcs = type == .command ? initPacketCRCs : firmwareCRCs
        return crcs[min(max(count, 0), crcs.count - 1)]
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

    mutating func silence() {
        now = max(now, core.nextDeadline ?? now + .seconds(1))
        feed(.timerFired)
    }

    mutating func wait(_ twentieths: UInt8) {
        now = now + .milliseconds(50 * Int(twentieths))
        feed(.timerFired)
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

    // MARK: - The core, and what is checked

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
                require(!finished, "a second end")
                require(initPacketExecuted, "completed before the init packet's Execute was answered with success")
                switch completion {
                case .validated:
                    require(answer?.opcode == .execute && answer?.outcome == .success(.none) && awaitsFinalExecute(before),
                            "completed(validated) without the success answer to the final Execute")
                case .unconfirmed:
                    require(event == .linkLost && awaitsFinalExecute(before),
                            "completed(unconfirmed) without the link lost under the final Execute")
                }
                finished = true
            case .failed(let error):
                require(!finished, "a second end")
                switch error {
                case .localProtocolViolation, .invalidJob: require(false, "failed with \(error)")
                default: _ = error.description
                }
                finished = true
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

/// An nRF5 SDK secure bootloader, reduced to its transfer (Tests' NordicFakeBootloader): the
/// honest answers. A lost link keeps what it received (SDK 15) or goes back to what it executed
/// (SDK 16 and 17).
private struct Bootloader {
    let initPacket: [UInt8]
    let firmware: [UInt8]
    let commandMax: Int
    let dataMax: Int
    let keepsProgress: Bool
    var selected = NordicObjectType.command
    var command: [UInt8] = []
    var commandSize = 0
    var commandExecuted = false
    var data: [UInt8] = []
    /// CRC-32 of every prefix of `data` (index: its length), kept as data comes and goes.
    var dataCRCs: [UInt32] = [0]
    /// End of the last executed data object, and of the one created.
    var executed = 0
    var objectEnd = 0
    var prn: UInt16 = 0
    var sincePRN = 0
    var validated = false

    init(initPacket: [UInt8], firmware: [UInt8], commandMax: Int, dataMax: Int, keepsProgress: Bool) {
        self.initPacket = initPacket
        self.firmware = firmware
        self.commandMax = commandMax
        self.dataMax = dataMax
        self.keepsProgress = keepsProgress
    }

    /// What the selected object holds: its length and CRC.
    var held: (count: Int, crc: UInt32) {
        selected == .command ? (command.count, CRC32.checksum(command)) : (data.count, dataCRCs[data.count])
    }

    /// The CRC of the first `count` bytes the selected object holds (all of them past the end).
    func heldCRC(upTo count: Int) -> UInt32 {
        selected == .command ? CRC32.checksum(command.prefix(count)) : dataCRCs[min(max(count, 0), data.count)]
    }

    mutating func handle(_ bytes: [UInt8]) -> [UInt8] {
        guard let request = NordicRequest(decoding: bytes) else {
            return [NordicOpcode.responseCode, bytes.first ?? 0, NordicResultCode.opcodeNotSupported.rawValue]
        }
        let opcode = request.opcode
        switch request {
        case .select(let type):
            selected = type
            let info = NordicObjectInfo(maxSize: UInt32(type == .command ? commandMax : dataMax), offset: UInt32(held.count),
                                        crc: held.crc)
            return NordicResponse(opcode: opcode, outcome: .success(.objectInfo(info))).encoded
        case .create(let type, let size):
            selected = type
            sincePRN = 0
            if type == .command {
                guard size <= commandMax else { return refuse(opcode, .insufficientResources) }
                command = []
                commandSize = Int(size)
                commandExecuted = false
            } else {
                guard size > 0, size <= dataMax, commandExecuted else { return refuse(opcode, .insufficientResources) }
                truncate(to: executed)
                objectEnd = executed + Int(size)
            }
            return success(opcode)
        case .setPRN(let value):
            prn = value
            sincePRN = 0
            return success(opcode)
        case .calculateChecksum:
            return checksum()
        case .execute:
            if selected == .command {
                guard !command.isEmpty, command.count == commandSize else { return refuse(opcode, .operationNotPermitted) }
                guard command == initPacket else { return refuse(opcode, .invalidObject) }
                commandExecuted = true
                return success(opcode)
            }
            guard commandExecuted, data.count == objectEnd, objectEnd > executed else { return refuse(opcode, .operationNotPermitted) }
            executed = objectEnd
            if executed == firmware.count {
                guard data == firmware else { return refuse(opcode, .invalidObject) }
                validated = true
            }
            return success(opcode)
        case .abort:
            return success(opcode)
        }
    }

    /// One packet; the notification it makes due (a PRN, or an object overflowed), if any.
    mutating func packet(_ bytes: [UInt8]) -> [UInt8]? {
        if selected == .command {
            guard command.count + bytes.count <= commandSize else { return nil }
            command += bytes
            return nil
        }
        guard data.count + bytes.count <= objectEnd else { return refuse(.calculateChecksum, .invalidParameter) }
        var crc = CRC32(continuing: dataCRCs[data.count])
        for byte in bytes {
            crc.update(CollectionOfOne(byte))
            dataCRCs.append(crc.value)
        }
        data += bytes
        guard prn > 0 else { return nil }
        sincePRN += 1
        guard sincePRN >= Int(prn) else { return nil }
        sincePRN = 0
        return checksum()
    }

    mutating func linkLost() {
        prn = 0
        sincePRN = 0
        guard !keepsProgress else { return }
        truncate(to: executed)
        objectEnd = executed
        if !commandExecuted { command = [] }
    }

    mutating func truncate(to count: Int) {
        guard count < data.count else { return }
        data.removeSubrange(count...)
        dataCRCs.removeSubrange((count + 1)...)
    }

    func checksum() -> [UInt8] {
        NordicResponse(opcode: .calculateChecksum,
                       outcome: .success(.checksum(NordicChecksum(offset: UInt32(held.count), crc: held.crc)))).encoded
    }

    func success(_ opcode: NordicOpcode) -> [UInt8] {
        NordicResponse(opcode: opcode, outcome: .success(.none)).encoded
    }

    func refuse(_ opcode: NordicOpcode, _ result: NordicResultCode) -> [UInt8] {
        NordicResponse(opcode: opcode, outcome: .failure(NordicRemoteError(result: result))).encoded
    }
}

/// CRC-32 of every prefix of `bytes`, index: the prefix's length.
private func prefixCRCs(_ bytes: [UInt8]) -> [UInt32] {
    var crc = CRC32()
    var crcs: [UInt32] = [0]
    crcs.reserveCapacity(bytes.count + 1)
    for byte in bytes {
        crc.update(CollectionOfOne(byte))
        crcs.append(crc.value)
    }
    return crcs
}

/// Deterministic bytes, different at every offset a packet could be misplaced to.
private func exchangeBytes(count: Int, seed: UInt64) -> [UInt8] {
    var state = seed
    return (0 ..< count).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: state >> 33)
    }
}
