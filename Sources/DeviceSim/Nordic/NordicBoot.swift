/// One start of the simulated device: what it started and why.
public struct NordicBoot: Sendable, Equatable {
    public enum Target: Sendable, Equatable {
        case application(version: UInt32)
        case bootloader
    }

    public enum Reason: Sendable, Equatable {
        /// Buttonless `01`.
        case buttonless
        case bootloaderReset(NordicResetCause)
        /// Power removed and restored; `enterBootloader` as if the DFU button were held.
        case powerCycle(enterBootloader: Bool)
    }

    public var target: Target
    public var reason: Reason

    public init(target: Target, reason: Reason) {
        self.target = target
        self.reason = reason
    }
}
