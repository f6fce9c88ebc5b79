import Transport

/// The radio's ceiling in IMAGE bytes per second for the chunks the client sent.
///
/// `LinkProfile.writeCommandCeiling(valueSize: s)` is the rate, in value bytes per second, of an
/// endless stream of s-byte Write Commands: so one s-byte write occupies the radio for
/// `s / writeCommandCeiling(s)` seconds in steady state. A chunk is one SMP packet (8-byte header,
/// CBOR map with `off`, `data` and the byte-string head) cut into writes; its radio time is the
/// sum over its writes. The ceiling is the chunks' image bytes divided by their summed radio time:
///
///     ceiling = Σ data / Σ_chunks Σ_writes (s / writeCommandCeiling(s))
///
/// which, when every write is full (the chunk sizer's choice whenever it can), is simply
/// `writeCommandCeiling(W) × data / packet`: the radio's value rate times the share of each packet
/// that is image. The header, CBOR keys and `off` are the SMP/CBOR overhead it counts; the ATT and
/// L2CAP headers are already inside `writeCommandCeiling`. A short write (a chunk's last) is
/// charged at the rate of a stream of such writes, exact to within how fragments share connection
/// events. The device's replies (one ≈ 19-byte notification per chunk) are left out, as
/// `writeCommandCeiling` leaves them out: each rides in a slot the central opens anyway but makes it
/// longer, which costs a slot only in an event with too little spare time (1M/30 ms: two replies in
/// one event; docs/performance.md has the numbers). The ceiling is therefore the write-only figure,
/// slightly above what the radio can carry with its replies.
struct RadioCeiling {
    let profile: LinkProfile
    private var secondsPerWrite: [Int: Double] = [:]

    init(profile: LinkProfile) { self.profile = profile }

    /// Image bytes per second; nil when there are no chunks.
    mutating func imageBytesPerSecond(_ chunks: [UploadChunk]) -> Double? {
        var data = 0
        var seconds = 0.0
        for chunk in chunks {
            data += chunk.dataCount
            for size in chunk.writeSizes { seconds += airtime(ofWrite: size) }
        }
        guard data > 0, seconds > 0 else { return nil }
        return Double(data) / seconds
    }

    private mutating func airtime(ofWrite size: Int) -> Double {
        if let known = secondsPerWrite[size] { return known }
        let rate = profile.writeCommandCeiling(valueSize: size)
        let seconds = rate > 0 ? Double(size) / rate : .infinity
        secondsPerWrite[size] = seconds
        return seconds
    }
}
