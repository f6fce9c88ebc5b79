/// How many image bytes go into one upload request.
///
/// The rule: **fill whole writes.** A packet of `S` bytes leaves as ⌈S / W⌉ writes of at most the
/// link's `W` bytes, and every write costs a radio PDU and its acknowledgement whether full or
/// not, while every packet costs its SMP header, CBOR fields and a turn in the device's queue.
/// Two packet sizes are candidates:
///   - the whole budget `P` (`buf_size` with reassembly, else one write): fewest packets;
///   - the largest multiple of `W` not above `P`: no part-filled last write.
/// For each, `ImageUploadRequest.maximumDataCount(packetSize:)` gives the exact data that fits
/// at this offset (the CBOR overhead depends on `off` and on first-packet fields), and the
/// candidate carrying more image bytes per write wins; a tie goes to the larger packet.
///
/// Examples: `P` 2475, `W` 495 (Nordic's recommended 5 × 495): both candidates are 2475, five
/// full writes. `P` 2475, `W` 244: 2440 bytes in 10 full writes beats 2475 in 11 writes whose last
/// carries 35 bytes. `P` 470, `W` 244: 470 in two writes beats 244 in one, because the fixed CBOR
/// cost is then spread over more data. Without reassembly `P` = `W` and a packet is one full write.
///
/// No 4-byte alignment: only Zephyr before PR #41959 (NCS ≤ 1.8) dropped unaligned tails.
enum UploadChunkSizer {
    /// Image bytes for a request shaped like `template` (its data is ignored), at most `remaining`;
    /// nil when not even one byte fits.
    static func dataCount(for template: ImageUploadRequest, budget: SMPPacketBudget, remaining: Int) -> Int? {
        let packet = budget.maxPacketSize
        let write = budget.maxWriteSize
        guard write > 0 else { return nil }
        var best: (data: Int, writes: Int)?
        for size in Set([packet, packet / write * write]) where size > 0 {
            guard let data = template.maximumDataCount(packetSize: size), data > 0 else { continue }
            let writes = (size + write - 1) / write
            if let current = best {
                // More data per write wins (cross-multiplied); a tie goes to more data per packet.
                let lhs = data * current.writes
                let rhs = current.data * writes
                if lhs > rhs || (lhs == rhs && data > current.data) { best = (data, writes) }
            } else {
                best = (data, writes)
            }
        }
        guard let best else { return nil }
        return min(best.data, remaining)
    }
}
