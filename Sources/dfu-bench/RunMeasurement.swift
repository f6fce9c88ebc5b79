/// What one transfer on one profile measured. Rates are image bytes per second (kB = 1000 B).
///
/// The measured interval runs from the moment the client holds the device's reply to the first
/// (`off == 0`) packet — the device erased the slot before sending it — to the moment it holds the
/// reply whose `off` equals the image length. `streamedBytes` is what the device acknowledged in
/// that interval: the image length minus the `off` of that first reply.
struct RunMeasurement: Sendable, Encodable {
    /// What the run observed; everything else is derived from it.
    struct Observed: Sendable {
        var streamedBytes: Int
        var transferSeconds: Double
        var eraseWaitSeconds: Double
        var connectSeconds: Double
        var radioCeiling: Double
        var flashCeiling: Double
        var cpuSeconds: Double
        var window: Int
        var deviceBufferSize: Int
        var deviceBufferCount: Int
        var chunkLayout: String
        var chunks: Int
        var resentBytes: Int
        var connectionEvents: Int
        var centralPDUs: Int
    }

    /// Image bytes / the measured interval.
    let goodput: Double
    let streamedBytes: Int
    let transferSeconds: Double
    /// From the upload's start to the first reply: the first packet's trip, the slot erase, the reply.
    let eraseWaitSeconds: Double
    /// Connecting and reading the MCUmgr parameters, before the upload starts.
    let connectSeconds: Double
    /// The radio's ceiling in image bytes/s for the chunks sent (`RadioCeiling`).
    let radioCeiling: Double
    /// The device's flash programming rate: image bytes/s.
    let flashCeiling: Double
    /// The lower of the two, which of them it is, and the goodput as a share of it.
    let ceiling: Double
    let limitedBy: String
    let ratio: Double
    /// Process CPU time (user + system) in the measured interval, per MiB streamed, in milliseconds.
    let cpuMillisecondsPerMiB: Double
    let window: Int
    let deviceBufferSize: Int
    let deviceBufferCount: Int
    /// The most common chunk, e.g. `2449 of 2475 B in 5×495`.
    let chunkLayout: String
    let chunks: Int
    /// Image bytes the client sent more than once (resends after a timeout or rewind).
    let resentBytes: Int
    /// Connection events that carried data, and the LL PDUs the central sent, in the measured interval.
    let connectionEvents: Int
    let centralPDUs: Int

    init(_ observed: Observed) {
        streamedBytes = observed.streamedBytes
        transferSeconds = observed.transferSeconds
        goodput = observed.transferSeconds > 0 ? Double(observed.streamedBytes) / observed.transferSeconds : 0
        eraseWaitSeconds = observed.eraseWaitSeconds
        connectSeconds = observed.connectSeconds
        radioCeiling = observed.radioCeiling
        flashCeiling = observed.flashCeiling
        ceiling = min(observed.radioCeiling, observed.flashCeiling)
        limitedBy = observed.radioCeiling <= observed.flashCeiling ? "radio" : "flash"
        ratio = ceiling > 0 ? goodput / ceiling : 0
        let mebibytes = Double(observed.streamedBytes) / 1_048_576
        cpuMillisecondsPerMiB = mebibytes > 0 ? observed.cpuSeconds * 1000 / mebibytes : 0
        window = observed.window
        deviceBufferSize = observed.deviceBufferSize
        deviceBufferCount = observed.deviceBufferCount
        chunkLayout = observed.chunkLayout
        chunks = observed.chunks
        resentBytes = observed.resentBytes
        connectionEvents = observed.connectionEvents
        centralPDUs = observed.centralPDUs
    }
}
