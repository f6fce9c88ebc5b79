/// The protocol on one device, from the connect stage to the end of the run. Every method runs in
/// its stage and reports failures as the `DFUError` the user sees for that stage.
protocol UpdateSession: Sendable {
    associatedtype Update: PreparedUpdate

    /// Requests kept in flight during the transfer, for the connection summary (1 when the
    /// protocol keeps one).
    var window: Int { get }
    /// The read-device-state stage: what the device runs, holds and allows, and what that means for
    /// this update. The device's state may settle what the file left open (which direct-XIP
    /// variant goes to the free slot), so the update comes back as it is to be sent.
    func readState(for update: inout Update) async throws(DFUError) -> SessionState
    /// The start of the transfer stage, before anything is sent: switch the device into the mode
    /// that takes the update (an application that resets into its bootloader); nothing for a
    /// device that takes it as it is.
    func enterUpdateMode(for update: Update) async throws(DFUError)
    /// The transfer stage for one of `update.parts`, from where the device says it is. Progress
    /// goes to `progress`; a link loss parks it until the connection attaches a new link (or fails
    /// it).
    func transfer(_ update: Update, part: UpdatePart,
                  progress: @escaping @Sendable (AcknowledgedProgress) -> Void) async throws(DFUError) -> PartTransfer
    /// During the transfer stage, after a link loss: whether the device was due to reset by itself
    /// (a Nordic transfer's final Execute went out), so the loss is that reset, for the reboot wait
    /// after the stage, and not one to reconnect from.
    func resetIsDue() async -> Bool
    /// Called by the connection's owner when reconnecting during the transfer failed for good:
    /// the transfer must end now with `failure` rather than at its own deadline.
    func abandonTransfer() async
    /// Whether `activate` talks to the device (a link lost after the transfer is restored first),
    /// or the transfer's end already was the activation (the device resets by itself).
    var activationNeedsLink: Bool { get }
    /// Whether `activate` marks the update as `--mode` asks (so the mode is announced), or only
    /// resets a device whose bootloader already holds it where it boots (MCUboot's serial recovery).
    var activationMarks: Bool { get }
    /// The activate stage up to and including the reset. Returns the link losses counted before
    /// the reset went out, so the wait for the reboot counts only the drop the reset causes; nil
    /// when the device restarted into the update by itself before the reset was sent (it reset as
    /// it took the mark, and the link is back to it): there is no reboot left to wait for.
    func activate(_ update: Update, mode: ActivationMode, losses: LinkLossMonitor) async throws(DFUError) -> Int?
    /// After a part that is not the last was sent. When its end activated it and the device
    /// resets (a Nordic system part): points the connection at where the device comes back to take
    /// the next part and returns the link losses counted before that reset (as `activate`). nil:
    /// the device holds the part until the one activation after the last (MCUboot images), and the
    /// next part follows on the same link.
    func partActivated(_ update: Update, part: UpdatePart) async throws(DFUError) -> Int?
    /// Over a link that cannot report the drop (UDP): whether the device answers now.
    func probe(timeout: Duration) async -> ProbeResult
    /// Whether the device can be reached again after the reset that activates the update, to check
    /// what it runs. False where the new firmware has no face on this link (a Nordic bootloader on
    /// a serial port: the application it starts does not speak the bootloader's protocol there):
    /// the reconnect stage is then left out, and `confirm` reports what the activation said.
    var reachableAfterActivation: Bool { get }
    /// The confirm-version stage after the reboot (or at once when the device already runs the
    /// update): the new image must run, and is confirmed when `mode` asks. `readUntil` bounds the
    /// retries of the first read (real time).
    func confirm(_ update: Update, mode: ActivationMode, before: SessionState,
                 readUntil: ContinuousClock.Instant) async throws(DFUError) -> ImageVersion
}

extension UpdateSession {
    /// A protocol whose reset is the activate stage's never resets during the transfer.
    func resetIsDue() async -> Bool { false }

    /// A device is reached again after its activation unless its protocol says otherwise.
    var reachableAfterActivation: Bool { true }

    /// Where activation needs the link, it marks the update as the mode asks.
    var activationMarks: Bool { activationNeedsLink }

    /// A protocol whose updates are one part never gets here.
    func partActivated(_ update: Update, part: UpdatePart) async throws(DFUError) -> Int? {
        throw .internalError("\(part.label) is not the last part, but this protocol sends one")
    }
}
