import Synchronization
import Transport

/// One serial byte link carrying Nordic Secure DFU: it reads the line from the start (decoding
/// answers with `NordicSerialFramer`), passes Control Point answers on as notifications, keeps
/// the answers to its own serial-only requests, and writes frames. `NordicSerialConnector` pings
/// and asks the MTU through it before a `NordicSerialLink` shows it as the bootloader's GATT face.
/// A Control Point answer before its first Control Point request is an earlier run's leftover
/// (`NordicSerialLeftovers`): noted as dropped, never passed on.
final class NordicSerialChannel: Sendable {
    let base: any Link
    let byteCharacteristic: CharacteristicID
    /// Control Point answers (as notifications of `NordicDFUService.controlPoint`) and the end.
    let events: AsyncStream<LinkEvent>
    private let answers: NordicSerialAnswers
    private let leftovers: NordicSerialLeftovers
    private let reader: Task<Void, Never>
    private let lastPingID = Mutex<UInt8>(0)

    init(wrapping base: any Link, byteCharacteristic: CharacteristicID,
         observer: @escaping @Sendable (NordicSerialLink.Note) -> Void) {
        self.base = base
        self.byteCharacteristic = byteCharacteristic
        let (events, continuation) = AsyncStream.makeStream(of: LinkEvent.self)
        self.events = events
        let generation = base.parameters.generation
        let answers = NordicSerialAnswers()
        self.answers = answers
        let leftovers = NordicSerialLeftovers()
        self.leftovers = leftovers
        reader = Task {
            var framer = NordicSerialFramer()
            for await event in base.events {
                switch event.kind {
                case .notification(let source, let bytes):
                    guard source == byteCharacteristic else { continue }
                    for output in framer.receive(bytes) {
                        switch output {
                        case .controlPoint(let answer) where leftovers.isLeftover:
                            observer(.dropped("a Control Point answer before this run asked anything, to an earlier run's "
                                              + "request: " + answer.map { hexDigits($0, width: 2) }.joined(separator: " ")))
                        case .controlPoint(let answer):
                            continuation.yield(LinkEvent(generation: generation,
                                                         kind: .notification(NordicDFUService.controlPoint, answer)))
                        case .serial(let response):
                            if !answers.deliver(response) { observer(.unexpected(response.description)) }
                        case .dropped(let reason):
                            observer(.dropped(reason))
                        }
                    }
                case .disconnected(let reason):
                    answers.end()
                    continuation.yield(LinkEvent(generation: generation, kind: .disconnected(reason)))
                    continuation.finish()
                    return
                }
            }
            answers.end()
            continuation.finish()
        }
    }

    deinit { reader.cancel() }

    /// Writes `bytes` (whole frames, in order) in pieces the byte link takes; suspends while the
    /// port's buffers are full.
    func write(_ bytes: [UInt8]) async throws(LinkError) {
        let piece = max(base.parameters.maxWriteWithoutResponse, 1)
        var start = 0
        while start < bytes.count {
            let end = min(start + piece, bytes.count)
            try await base.writeWithoutResponse(Array(bytes[start..<end]), to: byteCharacteristic)
            start = end
        }
    }

    /// Writes one Control Point request's frame; answers to Control Point requests are passed on
    /// from now on.
    func writeControlPoint(_ frame: [UInt8]) async throws(LinkError) {
        leftovers.controlPointAsked()
        try await write(frame)
    }

    /// Sends a serial-only request and waits up to `timeout` (real time) for the answer `accepts`
    /// takes. A write that fails is `.gone`.
    func ask(_ request: NordicSerialRequest, timeout: Duration,
             accepts: @escaping @Sendable (NordicSerialResponse) -> Bool) async -> NordicSerialAnswers.Outcome {
        guard let ticket = answers.expect(accepts) else { return .gone }
        let deadline = ContinuousClock.now.advanced(by: timeout)
        do throws(LinkError) {
            try await write(request.framed)
        } catch {
            answers.cancel(ticket)
            return .gone
        }
        return await answers.wait(ticket, until: deadline)
    }

    /// One ping with a fresh id. Any answer to it counts, a refusal too (as nrfutil counts it: a
    /// bootloader that refuses the request is still there).
    func ping(timeout: Duration) async -> NordicSerialAnswers.Outcome {
        let id = lastPingID.withLock { last in
            last &+= 1
            return last
        }
        return await ask(.ping(id: id), timeout: timeout) { response in
            switch response {
            case .ping(let echoed): return echoed == id
            case .refused(.ping, _): return true
            default: return false
            }
        }
    }

    /// Asks a serial-only question whose answer is told by its opcode alone (protocol, hardware
    /// or firmware version): the answer, or a refusal. One question waits at a time, so a late
    /// answer to an earlier Firmware Version (which does not echo the image number) can only be
    /// taken for a later one when the earlier went unanswered; the caller stops asking then.
    func query(_ request: NordicSerialRequest, timeout: Duration) async -> NordicSerialAnswers.Outcome {
        let opcode = request.opcode
        return await ask(request, timeout: timeout) { $0.opcode == opcode }
    }

    /// Asks the bootloader's MTU: the answer, or a refusal.
    func mtu(timeout: Duration) async -> NordicSerialAnswers.Outcome {
        await ask(.getMTU, timeout: timeout) { response in
            switch response {
            case .mtu, .refused(.getMTU, _): return true
            default: return false
            }
        }
    }
}
