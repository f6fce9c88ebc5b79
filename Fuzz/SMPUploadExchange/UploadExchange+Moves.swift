import DFUCore
import Transport

/// The device's and the link's moves, one an input byte (its parameters after it).
extension UploadExchange {
    mutating func move(_ input: inout FuzzInput) {
        let code = input.byte() % 16
        guard linkUp else {
            switch code {
            case 9: silence()
            case 10: wait(.milliseconds(100 * Int(input.byte())))
            case 11:
                let size = input.byte()
                restore(writeSize: size & 0x80 == 0 ? firstWriteSize : Int(size & 0x7F) * 4)
            default: restore(writeSize: firstWriteSize)
            }
            return
        }
        switch code {
        case 0:
            honestStep()
        case 1:
            let offset = UInt64(input.uint16())
            let flags = input.byte()
            let response = ImageUploadResponse(offset: offset, match: flags & 1 == 0 ? nil : flags & 2 != 0,
                                               legacyReturnCode: flags & 4 != 0)
            reply(body: response.body)
        case 2:
            // Near where the device should be: the end of the oldest chunk, or the device's offset.
            let delta = Int64(Int8(bitPattern: input.byte()))
            let base = inbox.first.flatMap(chunkEnd) ?? device.session?.offset ?? 0
            let offset = UInt64(max(0, Int64(clamping: base) + delta))
            reply(body: ImageUploadResponse(offset: offset).body)
        case 3:
            let raw = input.byte()
            let form = input.byte()
            let rc: Int64 = [10, 12, 13, Int64(raw)][Int(form >> 2 & 3)]
            let error: SMPError = form & 1 == 0 ? .returnCode(rc, reason: nil)
                : .groupError(group: form & 2 == 0 ? .image : .os, rc: rc, reason: nil)
            if form & 0x10 != 0 { device.session = nil }
            reply(body: error.body)
        case 4:
            let index = Int(input.byte())
            if inbox.isEmpty { silence() } else { answer(inbox.remove(at: index % inbox.count)) }
        case 5:
            if !lastAnswer.isEmpty { send(lastAnswer) }
        case 6:
            let change = max(1, input.byte())
            if let frame = inbox.first {
                inbox.removeFirst()
                var packet = device.answer(frame)
                packet.header.sequence ^= change
                send(encode(packet))
            }
        case 7:
            let change = input.byte()
            if let frame = inbox.first {
                inbox.removeFirst()
                var packet = device.answer(frame)
                switch change & 3 {
                case 0: packet.header.group = SMPGroup(rawValue: packet.header.group.rawValue ^ UInt16(change >> 2 | 1))
                case 1: packet.header.command ^= change >> 2 | 1
                case 2:
                    // The request's own op, or the other response op.
                    let other: SMPOp = packet.header.op == .readResponse ? .writeResponse : .readResponse
                    packet.header.op = change & 4 == 0 ? frame.header.op : other
                default: packet.header.version = SMPVersion(rawValue: change >> 2 & 3) ?? .v1
                }
                send(encode(packet))
            }
        case 8:
            send(input.chunk())
        case 9:
            silence()
        case 10:
            wait(.milliseconds(100 * Int(input.byte())))
        case 11:
            loseLink()
        case 12:
            let cut = Int(input.byte())
            if let frame = inbox.first {
                inbox.removeFirst()
                let bytes = encode(device.answer(frame))
                let at = cut % (bytes.count + 1)
                send(Array(bytes[..<at]))
                send(Array(bytes[at...]))
            }
        case 13:
            if !inbox.isEmpty { inbox.removeFirst() }
        case 14:
            device.session = nil
        default:
            let body = input.chunk()
            if let header = inbox.first?.header ?? lastRequest {
                if !inbox.isEmpty { inbox.removeFirst() }
                send(header.responseHeader(length: UInt16(body.count)).encoded() + body)
            }
        }
    }

    /// The device's honest answer, a moment later.
    mutating func answer(_ frame: SMPFrame) {
        send(encode(device.answer(frame)))
    }

    /// An answer with this body to the oldest request (or, none waiting, to the last one).
    mutating func reply(body: CBORMap) {
        guard let header = inbox.first?.header ?? lastRequest else { return }
        if !inbox.isEmpty { inbox.removeFirst() }
        send(encode(SMPPacket.response(to: header, body: body)))
    }

    func chunkEnd(_ frame: SMPFrame) -> UInt64? {
        guard ImageUploadRequest.matches(frame.header), let packet = try? SMPPacket(frame: frame),
              let request = try? ImageUploadRequest(body: packet.body) else { return nil }
        return request.offset + UInt64(request.data.count)
    }

    func encode(_ packet: SMPPacket) -> [UInt8] {
        (try? packet.encoded()) ?? []
    }

    mutating func send(_ bytes: [UInt8]) {
        guard linkUp, !finished else { return }
        lastAnswer = bytes
        now = now + .milliseconds(1)
        feed(.notification(bytes))
    }

    mutating func loseLink() {
        linkUp = false
        inbox.removeAll()
        requests = SMPFrameAssembler()
        feed(.linkLost)
    }

    mutating func restore(writeSize size: Int) {
        now = now + .seconds(1)
        linkUp = true
        writeSize = size
        requests = SMPFrameAssembler()
        answers = Self.clientAssembler()
        feed(.linkRestored(maxWriteSize: size))
    }
}
