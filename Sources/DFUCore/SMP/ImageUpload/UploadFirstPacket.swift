/// Why an `off == 0` packet is out: it sizes the packet, and its failures count against the
/// offset the upload is trying to get past (so a device that reboots at the same chunk every
/// time is given up on, while losses at different points are each recovered).
enum UploadFirstPacket: Sendable {
    /// The upload's first packet: as much data as fits.
    case start
    /// The device reported `off == 0` after acknowledging `from`: it starts over, so send as
    /// much as fits.
    case restart(from: UInt64)
    /// After a new link (the device had acknowledged `from`): most likely it resumes, so send
    /// only a header's worth.
    case resume(from: UInt64)
    /// The same probe to a device that fell silent on a link that cannot report its loss
    /// (`UploadResync`): bounded by the resync's deadline, not counted as a failure.
    case resync(from: UInt64)

    var failureOffset: UInt64 {
        switch self {
        case .start: return 0
        case .restart(let from), .resume(let from), .resync(let from): return from
        }
    }

    /// A header's worth of data, enough to be valid and cheap when the device already has it.
    var isProbe: Bool {
        switch self {
        case .resume, .resync: return true
        case .start, .restart: return false
        }
    }
}
