/// What a dry run (`UpdateOptions.dryRun`) found the real run would do once every check before
/// the transfer had passed: nothing was written to the device's slots, marked or reset.
public struct DryRunVerdict: Sendable, Equatable {
    public enum Plan: Sendable, Equatable {
        /// Upload `bytes`, then activate as the mode says.
        case upload(bytes: Int)
        /// The device already holds the image in its second slot: activate only.
        case activateOnly
        /// The device already runs the image unconfirmed: confirm only.
        case confirmOnly
        /// The device already runs the image, confirmed: nothing to do.
        case nothing
    }

    public var plan: Plan
    public var mode: ActivationMode
    /// The protocol has no test or confirm step: the device activates what it received itself (a
    /// Nordic bootloader, with its last Execute), whatever `mode` says.
    public var activatesItself: Bool

    public init(plan: Plan, mode: ActivationMode, activatesItself: Bool = false) {
        self.plan = plan
        self.mode = mode
        self.activatesItself = activatesItself
    }
}
