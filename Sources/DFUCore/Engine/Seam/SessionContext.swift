/// What every session is made with: the clock, the deadlines, how the device is named, where
/// diagnostics go.
struct SessionContext: Sendable {
    let clock: EngineClock
    let deadlines: UpdateOptions.Deadlines
    let device: String
    let emit: @Sendable (UpdateEvent) -> Void

    func log(_ message: String) { emit(.log(message)) }
    func warn(_ message: String) { emit(.warning(message)) }
}
