import DFUCore
import Synchronization
import Transport

/// A `Link` that passes everything through and counts the image data of each SMP image upload
/// request the host wrote: what the device was sent, whether or not it arrived or was used. On a
/// Nordic bootloader it counts every Packet write instead (init packet and firmware data).
///
/// Counted from the bytes on the link, not from the engine's events, so a resend the engine does
/// not report (a window resent after a timeout, a restart from 0 after the device lost its session)
/// is counted all the same. A write counts once the link took it; one that failed never left.
///
/// `onRequest` hears of each SMP request whose last byte is about to be handed to the device,
/// before the device can answer it (the process deaths' activation steps over BLE).
final class CountingLink: ForwardingLink {
    let inner: any Link
    private let counter: UploadCounter
    private let onRequest: (@Sendable (SMPHeader) -> Void)?
    /// Writes put back together into SMP packets (a packet may span several writes).
    private let assembler = Mutex(SMPFrameAssembler())

    init(_ inner: any Link, counter: UploadCounter, onRequest: (@Sendable (SMPHeader) -> Void)? = nil) {
        self.inner = inner
        self.counter = counter
        self.onRequest = onRequest
    }

    func writeWithoutResponse(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
        // The Packet characteristic carries nothing but object data; the rest is SMP or control.
        if characteristic == NordicDFUService.packet {
            try await inner.writeWithoutResponse(bytes, to: characteristic)
            counter.add(bytes.count)
            return
        }
        let frame = assemble(bytes)
        try await inner.writeWithoutResponse(bytes, to: characteristic)
        count(frame)
    }

    func write(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
        if characteristic == NordicDFUService.controlPoint { await counter.willWriteControlPoint(bytes) }
        let frame = assemble(bytes)
        try await inner.write(bytes, to: characteristic)
        count(frame)
    }

    /// The SMP packet `bytes` completes, if any, told to `onRequest` before it goes on.
    private func assemble(_ bytes: [UInt8]) -> SMPFrame? {
        let frame: SMPFrame?
        do {
            frame = try assembler.withLock { assembler throws(SMPFrameError) in try assembler.append(bytes) }
        } catch {
            // Not SMP framing (the engine writes nothing else on this characteristic); start afresh.
            assembler.withLock { $0.reset() }
            return nil
        }
        if let frame { onRequest?(frame.header) }
        return frame
    }

    private func count(_ frame: SMPFrame?) {
        guard let frame, let packet = try? SMPPacket(frame: frame), let bytes = UploadData.bytes(in: packet) else { return }
        counter.add(bytes)
    }
}
