import DFUCore

/// `dfu batch`'s own options that go into every row's request; a row's cell, where given, wins.
struct BatchDefaults: Sendable, Equatable {
    /// Absolute (made so when the batch starts).
    var key: String?
    var mode: ActivationMode?
    var minBattery: Int?
    var allowDowngrade = false
    var allowUnsigned = false
    var allowHostBattery = false
    var pair = false
    var dryRun = false
    var timeouts = FlashRequest.Timeouts()
}
