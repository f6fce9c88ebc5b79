/// SMP's transfer: the upload through `SMPSession`, as the device acknowledged it. The upload core
/// parks when the link goes; the engine's transfer stage reconnects and attaches the new link, after
/// which the core resumes from the device's offset (the off-0 probe with the same `sha`), unless the
/// image list it reads first shows slot 1 already holding the image.
struct SMPTransfer: Sendable {
    let session: SMPSession
    let image: PreparedImage
    /// `image` of the first packet; nil leaves it out (the device's default, image 0).
    let imageNumber: UInt64?
    /// `upgrade: true` in the first packet.
    let upgradeOnly: Bool
    let configuration: ImageUploadConfiguration
    /// Whether a restored link first looks for the image in slot 1 (the application's upload
    /// slot); not in MCUboot's serial recovery, which writes the primary slot.
    var checksSecondarySlot = true

    func run(progress: @Sendable (AcknowledgedProgress) -> Void) async throws(DFUError) {
        // With the slot hash, the core reads the image list on each new link before resuming: a
        // device that wrote the last chunk (its reply lost) and closed its session is done.
        let job = ImageUploadJob(image: image.bytes, sha256: image.fileSHA256, imageNumber: imageNumber,
                                 upgradeOnly: upgradeOnly,
                                 slotHash: checksSecondarySlot ? image.slotHash : nil)
        let stream = await session.upload(job, configuration: configuration)
        do {
            for try await step in stream { progress(step) }
        } catch let upload as ImageUploadError {
            throw SMPFailure.upload(upload)
        } catch let client as SMPClientError {
            throw SMPFailure.upload(.client(client))
        } catch {
            throw .internalError("upload ended with \(error)")
        }
    }
}
