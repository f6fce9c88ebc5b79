import Transport

/// The image list, asked of a device that was just reset on a serial port, until a deadline: a
/// USB port that went away is opened again first, each try is short (a lost answer costs little),
/// and the device's silence is its reboot. Both sides of serial recovery wait this way: for the
/// bootloader after `--enter-recovery`'s reset, for the application after the bootloader's.
struct ImageListAfterReset: Sendable {
    let connection: DeviceConnection<SMPSession>
    let context: SessionContext

    /// One try of the image list while the device starts.
    static let listTry: Duration = .seconds(2)

    enum Outcome: Sendable {
        case answered(ImageStateResponse)
        /// The port did not come back.
        case portGone(ReconnectFailure)
        /// Nothing answered before the deadline.
        case silent
        /// Something answered, but not with an image list.
        case failed(SMPClientError)
    }

    func ask(until deadline: ContinuousClock.Instant) async -> Outcome {
        while true {
            if await connection.isLinkLost,
               case .failure(let failure) = await connection.reconnect(until: deadline, log: context.log) {
                return .portGone(failure)
            }
            let remaining = context.clock.remaining(until: deadline)
            guard remaining > .zero else { return .silent }
            do throws(SMPClientError) {
                return .answered(try await connection.client.request(ImageStateReadRequest(),
                                                                     timeout: min(remaining, Self.listTry), attempts: 1))
            } catch {
                switch error {
                case .timeout, .linkLost: continue
                default: return .failed(error)
                }
            }
        }
    }
}
