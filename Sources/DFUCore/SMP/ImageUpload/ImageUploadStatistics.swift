/// What the upload cost, for tests ("no byte sent twice beyond the window") and diagnostics.
public struct ImageUploadStatistics: Sendable, Hashable {
    /// Image bytes put into `data` fields, resends included.
    public var dataBytesSent: UInt64 = 0
    /// SMP packets sent (first packets and chunks).
    public var requestsSent = 0
    /// Bytes handed to the link as writes, headers and CBOR included.
    public var wireBytesSent: UInt64 = 0
    /// Times the device asked for an earlier offset than the chunk it answered.
    public var rewinds = 0
    /// Chunk or first-packet deadlines that passed.
    public var timeouts = 0
    /// Times the device reported `off == 0` mid-upload and the upload started over.
    public var sessionRestarts = 0
    /// Busy answers (`MGMT_ERR_EBUSY`) that paused the upload.
    public var busyPauses = 0
    /// Times the link was lost and the upload parked.
    public var linkLosses = 0
    /// Times a silent device was re-synchronised (echo, then the resume packet) on a link that
    /// cannot report its loss.
    public var resyncs = 0

    public init() {}
}
