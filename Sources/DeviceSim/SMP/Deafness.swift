import DFUCore
import Transport

/// What ends a `silent@` or `outage@` fault (`SimFault`): the upload's resume packet, or time.
enum Deafness: Sendable, Hashable {
    /// Deaf until a request is an image upload at off 0: a client re-synchronising.
    case untilResumePacket
    /// Deaf until the instant: the outage heals by itself.
    case until(MonotonicInstant)

    /// Whether a reply due at `now` is lost: nothing leaves a deaf device.
    func silences(at now: MonotonicInstant) -> Bool {
        switch self {
        case .until(let end): return now < end
        case .untilResumePacket: return true
        }
    }

    /// Whether `bytes`, arriving at `now`, reach the device (and end the fault).
    func hears(_ bytes: [UInt8], at now: MonotonicInstant) -> Bool {
        switch self {
        case .until(let end):
            return now >= end
        case .untilResumePacket:
            guard let packet = try? SMPPacket(decoding: bytes), ImageUploadRequest.matches(packet.header),
                  let request = try? ImageUploadRequest(body: packet.body) else { return false }
            return request.offset == 0
        }
    }
}
