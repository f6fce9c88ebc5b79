/// The confirm-version stage (smp-mcuboot.md §4, steps 5–7): after the reboot, slot 0 must be the
/// new image (its hash equal to the image's installed hash: the SHA256 TLV, or DECOMP_SHA for a
/// compressed image) and active; then, as the mode asks, the
/// image is confirmed and the device must say so. A device back on its old image rolled back (or
/// its bootloader refused the image): exit 8. A device still running its previous image with the
/// new one pending has not reset at all (`Outcome.awaitingReset`).
struct SMPVersionCheck: Sendable {
    enum Outcome: Sendable, Equatable {
        /// The new image runs (and is confirmed, as the mode asks), reporting this version.
        case running(ImageVersion)
        /// The device still runs the image it ran before, with the new one pending in its other
        /// slot: it has not reset since the mark (the reset request was lost with the link, or the
        /// link came back before the device reset). Unlike a rollback, which leaves the new image
        /// not pending, or a refusal, after which MCUboot erases it. Swap and overwrite modes only.
        case awaitingReset
    }

    let session: SMPSession
    let clock: EngineClock
    let image: PreparedImage
    let mode: ActivationMode
    /// The image index updated: its slot 0 must run the new image.
    let imageIndex: UInt64
    /// Names the image in messages and events, in an update of several images.
    var name: UpdateImageName? = nil
    /// The hash slot 0 held before the update, to tell "rolled back" from "something else runs".
    let previousHash: [UInt8]?
    let previousVersion: ImageVersion?
    /// A device may list no slot for this index after the reboot (an nRF5340 copies the network
    /// core's image into that core, whose slot it does not list): then it is not checked, with a
    /// warning, unless the image still waits in the secondary slot.
    var mayBeUnlisted = false
    /// Direct-XIP: MCUboot runs the image from whichever slot holds it.
    var runsFromEitherSlot = false
    let device: String
    let requestTimeout: Duration
    let emit: @Sendable (UpdateEvent) -> Void
    var warn: @Sendable (String) -> Void = { _ in }
    /// `--expect-version`, for the image the run's result is about: the version the device reports
    /// must match it, or the image is left unconfirmed.
    var expected: ExpectedImageVersion? = nil

    /// Checks, confirms when the mode wants it, and returns the version the device reports.
    /// `readUntil` (real time) bounds the retries of the first read: a device that just rebooted
    /// may need a moment before it answers (over UDP nothing else tells that it is back). It reads
    /// before it writes, so after a link loss it can run again: a confirm the device took is seen,
    /// not sent twice.
    func run(readUntil: ContinuousClock.Instant) async throws(DFUError) -> Outcome {
        let state = try await readImages(until: readUntil)
        if mayBeUnlisted, !state.images.contains(where: { ($0.image ?? 0) == imageIndex }) {
            warn("\(device) lists no slot of image \(imageIndex) after the reboot (as an nRF5340's network core does, "
                 + "its image copied into that core): \(subject) \(image.version) cannot be checked there")
            return .running(image.version)
        }
        if awaitsReset(state) { return .awaitingReset }
        let running = try runningNewImage(in: state)
        let version = running.imageVersion ?? image.version
        try checkExpected(running)
        switch mode {
        case .testConfirm:
            if !running.confirmed { try await confirm() }
            emit(.versionConfirmed(version: version, confirmed: true, image: name))
        case .confirmOnly:
            guard running.confirmed else {
                throw .postRebootCheckFailed("\(device) runs \(version)\(inImage) but does not report it confirmed, although "
                                             + "it was marked permanent before the reset. Check the device's MCUboot configuration.")
            }
            emit(.versionConfirmed(version: version, confirmed: true, image: name))
        case .testOnly, .uploadOnly:
            emit(.versionConfirmed(version: version, confirmed: running.confirmed, image: name))
        }
        return .running(version)
    }

    /// Whether the image that runs is not the new one, which waits pending in a slot the device
    /// does not run from. Only where pending is a trailer flag MCUboot consumes at boot (swap and
    /// overwrite modes): with direct-XIP and RAM load Zephyr lists the newer slot as pending for as
    /// long as it is newer, booted or skipped, so there the list cannot tell.
    private func awaitsReset(_ state: ImageStateResponse) -> Bool {
        guard !runsFromEitherSlot, let running = state.running(image: imageIndex),
              running.hash != image.installedHash else { return false }
        return state.images.contains { ($0.image ?? 0) == imageIndex && $0.hash == image.slotHash && $0.pending && !$0.active }
    }

    /// The version the device reports for the new image, against `--expect-version`: checked before
    /// a confirmation, so that an image that fails it is not made permanent (exit 8).
    private func checkExpected(_ running: ImageSlotState) throws(DFUError) {
        guard let expected else { return }
        let reported = running.imageVersion
        if let reported, expected.matches(reported) { return }
        let said = reported.map { "reports \($0)" } ?? "reports its version as '\(running.version)'"
        let left: String
        switch mode {
        case .testConfirm, .testOnly:
            left = running.confirmed ? "" : " It was not confirmed: it goes back to its previous image on the next reset."
        case .confirmOnly, .uploadOnly:
            left = ""
        }
        throw .postRebootCheckFailed("\(who) runs the new image\(inImage) but \(said), not \(expected) (--expect-version).\(left)")
    }

    /// "the new image", or "image 1 (network core)".
    private var subject: String { name?.description ?? "the new image" }
    private var inImage: String { name.map { " as \($0)" } ?? "" }
    /// The device, and the image when the update has several: "…:EE:FF's image 1 (network core)".
    private var who: String { name.map { "\(device)'s \($0)" } ?? device }

    /// Confirms the running image (`{confirm: true}`, no hash: the running application's; another
    /// image index is named by its hash, which Zephyr refuses by default, error 32), then reads
    /// the images again: `confirmed` must now be set.
    func confirm() async throws(DFUError) {
        let request = imageIndex == 0 ? ImageStateWriteRequest(confirm: true)
            : ImageStateWriteRequest(hash: image.installedHash, confirm: true)
        do throws(SMPClientError) {
            _ = try await session.request(request, timeout: requestTimeout)
        } catch {
            throw SMPFailure.afterReboot("the request to confirm the new image", error, device: device)
        }
        let state = try await readImages(until: clock.reachableBy(.zero))
        let running = try runningNewImage(in: state)
        guard running.confirmed else {
            throw .postRebootCheckFailed("\(device) accepted the confirmation but does not report the new image "
                                         + "confirmed; it would go back to its previous image on the next reset.")
        }
    }

    /// Slot 0 with the new image, active; else why not.
    private func runningNewImage(in state: ImageStateResponse) throws(DFUError) -> ImageSlotState {
        guard let running = state.running(image: imageIndex) else {
            throw .postRebootCheckFailed("\(device) came back but reports no running image"
                                         + (imageIndex == 0 ? "." : " for image \(imageIndex)."))
        }
        let shown = running.imageVersion.map(\.description) ?? running.version
        if running.hash != image.installedHash {
            if let previousHash, running.hash == previousHash {
                let running = previousVersion?.description ?? shown
                throw .postRebootCheckFailed("\(who) came back running \(running): it rolled back or refused the image "
                                             + "(its bootloader did not boot \(image.version)). \(image.rollbackHint)")
            }
            throw .postRebootCheckFailed("\(who) came back running \(shown), which is neither the new image \(image.version) nor the one it ran before.")
        }
        guard running.active, running.slot == 0 || runsFromEitherSlot else {
            throw .postRebootCheckFailed("\(who) holds \(image.version) in slot \(running.slot) but does not run it (active: \(running.active)).")
        }
        return running
    }

    /// The image list, asked again while the device stays silent until `until`.
    private func readImages(until: ContinuousClock.Instant) async throws(DFUError) -> ImageStateResponse {
        while true {
            do throws(SMPClientError) {
                return try await session.request(ImageStateReadRequest(), timeout: requestTimeout)
            } catch {
                if case .timeout = error, !clock.hasPassed(until) { continue }
                throw SMPFailure.afterReboot("the image list request", error, device: device)
            }
        }
    }
}
