import Transport

/// The bootloader's RAM while it runs over serial: the request handler, the transport with its
/// receive buffers, the scheduler's queue, the request the main loop is busy with, the
/// transmitter, the inactivity timer, and a reset on its way.
struct SerialBootloaderRun: Sendable {
    /// A request in the scheduler's queue since `at`.
    struct Queued: Sendable {
        var request: SerialRequest
        var at: MonotonicInstant
    }

    /// A request the main loop has handled and is still busy with (its flash work) until `until`.
    /// Its answer goes out, and its buffer is given back, then.
    struct Busy: Sendable {
        var request: SerialRequest
        var outcome: DFUOutcome
        var until: MonotonicInstant
    }

    var core: BootloaderCore
    var transport: SerialDFUTransport
    var queue: [Queued] = []
    var busy: Busy?
    /// When the main loop finished its last request.
    var idleSince: MonotonicInstant
    /// The transmitter sends the last answer until then (`nrfx_uarte_tx` / `app_usbd_ep_transfer`
    /// refuse a new one meanwhile).
    var transmittingUntil: MonotonicInstant
    var inactivityDeadline: MonotonicInstant?
    /// The DFU is done or aborted: the device resets then (after the answer is out).
    var resetAt: MonotonicInstant?

    /// The main loop's next step: a reset, the inactivity timeout, the end of the busy request, or the
    /// start of the next queued one.
    var nextDeadline: MonotonicInstant? {
        if let resetAt { return resetAt }
        var due: [MonotonicInstant] = []
        if let inactivityDeadline { due.append(inactivityDeadline) }
        if let busy { due.append(busy.until) } else if let first = queue.first { due.append(max(idleSince, first.at)) }
        return due.min()
    }
}
