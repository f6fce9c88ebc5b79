/// A refusal from the bootloader: a result other than success, with the extended code when the
/// result is `extendedError` (nil otherwise).
public struct NordicRemoteError: Error, Sendable, Hashable, CustomStringConvertible {
    public let result: NordicResultCode
    public let extended: NordicExtendedError?

    public init(result: NordicResultCode, extended: NordicExtendedError? = nil) {
        self.result = result
        self.extended = extended
    }

    /// "FW VERSION TOO LOW (0x05)" for an extended error, else the result's name.
    public var description: String { extended.map { "\($0)" } ?? "\(result)" }
}
