/// What every session is made with: the clock, the user's options (deadlines among them), how the
/// device is named, where diagnostics go.
struct SessionContext: Sendable {
    let clock: EngineClock
    let options: UpdateOptions
    /// How messages name the device (shortened unless the user asked otherwise).
    let device: String
    /// The device in full, for records (`ConnectionSummary.identity`).
    let identity: String
    let emit: @Sendable (UpdateEvent) -> Void

    var deadlines: UpdateOptions.Deadlines { options.deadlines }

    func log(_ message: String) { emit(.log(message)) }
    func warn(_ message: String) { emit(.warning(message)) }
}
