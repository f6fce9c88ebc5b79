import Transport

/// One connection an `SMPOperator` call works on: the session, the negotiated sizes, and requests
/// whose failures come back in the operation's words.
struct SMPOperationLink: Sendable {
    let connection: DeviceConnection<SMPSession>
    let context: SessionContext
    let negotiated: SMPDeviceStateReader.Negotiated

    var device: String { context.device }

    /// Sends `request`; a failure becomes the `DFUError` for `what` (the request, as a sentence
    /// names it). A refusal goes to `refused` first, which may word it better (a known error code).
    func send<R: SMPRequest>(_ request: R, _ what: String, timeout: Duration? = nil,
                             refused: (SMPError) -> DFUError? = { _ in nil }) async throws(DFUError) -> R.Response {
        do throws(SMPClientError) {
            return try await connection.client.request(request, timeout: timeout ?? context.deadlines.request)
        } catch {
            if case .refused(let smp) = error, let worded = refused(smp) { throw worded.caused(by: .smpRequest(error)) }
            throw await failure(what, error)
        }
    }

    /// `error` of the request `what`, as the user sees it (`SMPFailure`'s words).
    func failure(_ what: String, _ error: SMPClientError) async -> DFUError {
        let reason = error == .linkLost ? await connection.lossReason(within: context.deadlines.request) : nil
        return SMPFailure.beforeTransfer(what, error, device: device, lossReason: reason)
    }

    /// The image list, as the device reports it now.
    func imageList() async throws(DFUError) -> ImageStateResponse {
        try await send(ImageStateReadRequest(), "the image list request")
    }
}
