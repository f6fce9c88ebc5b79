extension FlashRequest {
    /// The waits a user lengthened or shortened, in seconds; nil: the engine's default
    /// (`UpdateOptions.Deadlines`). Kept apart from the defaults so that a wait set again later (on
    /// `dfu resume`'s command line) can win over the stored one without pinning the others.
    public struct Timeouts: Sendable, Equatable, Codable {
        /// To connect, and to reconnect after a lost link.
        public var connect: Double?
        /// From the reset until the device answers again.
        public var reboot: Double?
        /// For one upload chunk's answer.
        public var chunk: Double?
        /// For the first chunk's answer (the device erases first).
        public var firstChunk: Double?

        /// The longest wait that is still a timeout and not a typo (an hour).
        public static let maximumSeconds = 3600.0

        public init(connect: Double? = nil, reboot: Double? = nil, chunk: Double? = nil, firstChunk: Double? = nil) {
            self.connect = connect
            self.reboot = reboot
            self.chunk = chunk
            self.firstChunk = firstChunk
        }

        /// These waits, with each one `later` sets taking its place.
        public func overridden(by later: Timeouts) -> Timeouts {
            Timeouts(connect: later.connect ?? connect, reboot: later.reboot ?? reboot, chunk: later.chunk ?? chunk,
                     firstChunk: later.firstChunk ?? firstChunk)
        }

        /// The engine's deadlines with these waits.
        public var deadlines: UpdateOptions.Deadlines {
            var deadlines = UpdateOptions.Deadlines()
            if let connect { deadlines.connect = Self.duration(connect) }
            if let reboot { deadlines.reboot = Self.duration(reboot) }
            if let chunk { deadlines.chunk = Self.duration(chunk) }
            if let firstChunk {
                // The user's deadline is taken as given, whatever the image's size.
                deadlines.firstChunk = Self.duration(firstChunk)
                deadlines.firstChunkPerMiB = nil
            }
            // The last chunk may wait for the device's image check; never less than any other chunk.
            deadlines.lastChunk = max(deadlines.lastChunk, deadlines.chunk)
            return deadlines
        }

        /// `seconds` as a duration, within 0 and `maximumSeconds`, to the millisecond.
        public static func duration(_ seconds: Double) -> Duration {
            .milliseconds(Int((min(max(seconds, 0), maximumSeconds) * 1000).rounded()))
        }

        enum CodingKeys: String, CodingKey {
            case connect, reboot, chunk
            case firstChunk = "first_chunk"
        }
    }
}
