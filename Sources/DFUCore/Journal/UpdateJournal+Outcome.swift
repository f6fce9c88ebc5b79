extension UpdateJournal {
    /// How a run ended, as facts: it succeeded, it was interrupted (a signal: resumable), or it
    /// failed with a failure of some kind; and the words it ended with. The tools derive an exit
    /// code from it (`ExitCodes`); the journal stores none.
    public struct Outcome: Codable, Sendable, Equatable {
        public enum Result: String, Codable, Sendable {
            /// The device runs the image as the mode asked (or holds it, for upload-only).
            case succeeded
            /// Stopped by SIGINT or SIGTERM; the device keeps what it acknowledged.
            case interrupted
            case failed
        }

        public var result: Result
        /// Which failure, when `result` is `failed`.
        public var failure: DFUError.Kind?
        public var message: String

        public init(result: Result, failure: DFUError.Kind? = nil, message: String) {
            self.result = result
            self.failure = failure
            self.message = message
        }

        /// A run that failed with `error`.
        public static func failed(_ error: DFUError) -> Outcome {
            Outcome(result: .failed, failure: error.kind, message: error.description)
        }

        public static let interrupted = Outcome(result: .interrupted, message: "interrupted")
    }
}
