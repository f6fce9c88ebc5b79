import Transport

/// `--enter-recovery`: the running application resets with `boot_mode` 1 (Zephyr's `os reset`
/// with `CONFIG_MCUMGR_GRP_OS_RESET_BOOT_MODE`, which stores it in retention), MCUboot built with
/// `CONFIG_BOOT_SERIAL_BOOT_MODE` reads it and stays in serial recovery, and dfu waits for the
/// bootloader on the same port (a USB port goes and comes back; the connection reopens it by its
/// path). The bootloader must then answer an image list that is not the application's
/// (`ImageLister`): an application built without boot mode skips the key and simply restarts,
/// which is said plainly before anything is sent.
struct SMPRecoveryEntry: Sendable {
    let connection: DeviceConnection<SMPSession>
    let context: SessionContext

    /// Zephyr answers the reset and reboots `CONFIG_MCUMGR_GRP_OS_RESET_MS` (250 ms) later: a
    /// request before that would still reach the application.
    static let rebootDelay: Duration = .seconds(1)
    /// How long the reset's answer is waited for (a lost one is fine: the reboot took the link).
    static let resetReplyTimeout: Duration = .seconds(2)

    private var device: String { context.device }

    func run() async throws(DFUError) {
        context.log("resetting \(device) into MCUboot's serial recovery (os reset, boot_mode 1)")
        do throws(SMPClientError) {
            _ = try await connection.client.request(OSResetRequest(bootMode: 1),
                                                    timeout: min(context.deadlines.request, Self.resetReplyTimeout), attempts: 1)
        } catch {
            switch error {
            case .timeout, .linkLost: break
            case .refused(let refusal):
                throw .deviceRejected("\(device) refused the reset into its bootloader (os reset with boot_mode 1): "
                                      + "\(refusal). Nothing was sent; enter serial recovery another way (hold the "
                                      + "recovery button at reset) and use serial:PATH,recovery.")
            default:
                throw SMPFailure.activation("the reset into serial recovery", error, device: device)
            }
        }
        await context.clock.pause(for: Self.rebootDelay)
        let deadline = context.clock.reachableBy(context.deadlines.connect)
        let listed: ImageStateResponse
        switch await ImageListAfterReset(connection: connection, context: context).ask(until: deadline) {
        case .answered(let list):
            listed = list
        case .portGone(let failure):
            throw .deviceUnreachable("\(device) did not come back on its port within \(context.deadlines.connect) "
                                     + "after the reset into serial recovery (\(failure)). Nothing was sent. "
                                     + EngineFailure.rerun, cause: failure.cause)
        case .failed(let error):
            throw SMPFailure.beforeTransfer("the image list request", error, device: device, lossReason: nil)
        case .silent:
            throw .deviceUnreachable("nothing answered on \(device) within \(context.deadlines.connect) after the reset "
                                     + "into serial recovery. Nothing was sent. \(EngineFailure.rerun)", cause: .link(.timeout))
        }
        guard listed.lister != .application else {
            throw .deviceRejected("\(device) came back running its application after the reset with boot_mode 1, not "
                                  + "MCUboot's serial recovery: the application needs CONFIG_MCUMGR_GRP_OS_RESET_BOOT_MODE "
                                  + "and MCUboot CONFIG_BOOT_SERIAL_BOOT_MODE. Nothing was sent; leave --enter-recovery "
                                  + "out to update through the application.")
        }
        context.log("MCUboot's serial recovery answers on \(device)")
    }
}
