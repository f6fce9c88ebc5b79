import Transport

/// What goes into an `ImageUploadCore` (`Event`, through `handle(_:now:)`) and what comes out
/// (`Action`, for the driver to carry out in order).
extension ImageUploadCore {
    public enum Event: Sendable, Hashable {
        case start
        /// One notification value from the SMP characteristic.
        case notification([UInt8])
        /// The driver's timer went off (early is fine).
        case timerFired
        case linkLost
        /// A new link is up, whose writes may carry `maxWriteSize` bytes.
        case linkRestored(maxWriteSize: Int)
    }

    public enum Action: Sendable, Hashable {
        /// Send these bytes as one write without response, in order.
        case write([UInt8])
        /// Wake the core (`timerFired`) at this instant; nil cancels the wake-up.
        case timer(at: MonotonicInstant?)
        /// The device's count of bytes it holds changed.
        case progress(AcknowledgedProgress)
        /// The device holds the whole image; `match` is its own check against the SHA-256, if made.
        case completed(match: Bool?)
        case failed(ImageUploadError)
    }
}

extension ImageUploadCore.Event {
    /// For error messages: the case without its payload.
    var name: String {
        switch self {
        case .start: return "start"
        case .notification: return "notification"
        case .timerFired: return "timerFired"
        case .linkLost: return "linkLost"
        case .linkRestored: return "linkRestored"
        }
    }
}
