import Transport

/// After the reset that ends a serial recovery MCUboot boots the primary slot. Whether the
/// application then answers SMP on the same port is its build's choice (Zephyr's SMP UART
/// transport): when it does, its image list is read as after any update; when nothing answers
/// within `--connect-timeout`, there is no one to ask and the run says what was checked (the
/// bootloader's list before the reset).
struct RecoveryApplicationCheck: Sendable {
    let connection: DeviceConnection<SMPSession>
    let context: SessionContext

    /// Not a word to the device for this long after the reset: MCUboot resets 250 ms after its
    /// answer, and one built with `BOOT_SERIAL_WAIT_FOR_DFU` listens for 500 ms after boot (by
    /// default) and stays in recovery if a request arrives then.
    static let quietAfterReset: Duration = .seconds(2)

    private var device: String { context.device }

    /// The application's image list, or nil when nothing answered SMP in time.
    func applicationList() async throws(DFUError) -> ImageStateResponse? {
        await context.clock.pause(for: Self.quietAfterReset)
        let deadline = context.clock.reachableBy(context.deadlines.connect)
        switch await ImageListAfterReset(connection: connection, context: context).ask(until: deadline) {
        case .answered(let listed):
            guard listed.lister != .serialRecovery else {
                throw .postRebootCheckFailed("\(device) still answers as MCUboot's serial recovery after its reset: it did not "
                                             + "start the new image (the recovery button held, or a boot mode left set). The "
                                             + "image is in the primary slot; reset the device without entering recovery.")
            }
            return listed
        case .portGone(let failure):
            context.log("the port did not come back after the reset: \(failure)")
            return nil
        case .failed(let error):
            context.log("the image list after the reset failed: \(error)")
            return nil
        case .silent:
            return nil
        }
    }
}
