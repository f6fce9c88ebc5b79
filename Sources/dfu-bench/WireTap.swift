import DFUCore
import Synchronization
import Transport

/// A `Link` that passes everything through to another link and keeps the SMP packets the client
/// writes, with the write sizes each was cut into.
///
/// The radio ceiling is computed from this record, i.e. from the chunking the client really chose
/// (`UploadChunkSizer` is internal to DFUCore and may change); a copy of its rule here could drift
/// from it and flatter the result.
final class WireTap: ForwardingLink {
    private struct Record: Sendable {
        var assembler = SMPFrameAssembler()
        var pendingWrites: [Int] = []
        var packets: [SentPacket] = []
        /// Writes the assembler could not place in a packet (never expected from our client).
        var strayWrites = 0
    }

    let inner: any Link
    private let record = Mutex(Record())

    init(_ inner: any Link) { self.inner = inner }

    /// The packets written since the last `reset()`.
    var packets: [SentPacket] { record.withLock { $0.packets } }

    var strayWrites: Int { record.withLock { $0.strayWrites } }

    /// Forgets what was recorded (the set-up traffic before the measured upload).
    func reset() {
        record.withLock { $0 = Record() }
    }

    func writeWithoutResponse(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
        note(bytes)
        try await inner.writeWithoutResponse(bytes, to: characteristic)
    }

    private func note(_ bytes: [UInt8]) {
        record.withLock { record in
            record.pendingWrites.append(bytes.count)
            do {
                guard let frame = try record.assembler.append(bytes) else { return }
                record.packets.append(SentPacket(frame: frame, writeSizes: record.pendingWrites))
            } catch {
                record.strayWrites += record.pendingWrites.count
            }
            record.pendingWrites = []
        }
    }
}
