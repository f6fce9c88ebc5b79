import Transport

/// One update protocol as the registry lists it (ARCHITECTURE, "Protocols side by side"): all the
/// engine, `dfu info`, `dfu scan`, `dfu verify` and the CLI need to know of it, supplied by the
/// protocol's own folder (`ProtocolEntry.smp` in `DFUCore/SMP/`, `.nordic` in `DFUCore/Nordic/`).
package struct ProtocolEntry: Sendable {
    /// As `--protocol` and the JSON name it.
    package let name: UpdateProtocolName
    /// As messages name it ("SMP (MCUmgr)").
    package let description: String
    /// The update files it takes, for a message about the wrong one.
    package let files: String
    /// Every kind of update file it takes (`recognise` answers one of them).
    package let fileKinds: [UpdateFileKind]
    /// Whether `bytes` is one of its update files, and how sure it is (`FileClaim`).
    let recognise: @Sendable ([UInt8]) -> FileClaim?
    /// The service a device advertises when it offers the protocol (`dfu scan`'s filter).
    package let advertisedService: ServiceID
    /// `dfu scan`: the PROTOCOL column, and the JSON `protocol` field.
    package let scanColumn: String
    package let scanJSONName: String
    /// `dfu scan --serial`: the questions that tell whether a serial port speaks the protocol, in
    /// the order they are asked (`SerialProber`).
    package let serialProbes: [SerialProbe]
    /// What a device offering the protocol runs, for the hint when a device offers no update
    /// service ("Check that the device runs <this>, or <the next>.").
    let runsHint: String
    /// Whether a device tells which image it runs by the image's hash (SMP's image list), so an
    /// update that is done shows as nothing to send. Where not (a Nordic application reports only
    /// its firmware revision), the version it reports is all that tells an earlier update still
    /// runs (`dfu batch`, before it skips a device its journal says is done).
    package let reportsRunningImageHash: Bool
    /// `dfu info`: what the protocol reports of a connected device.
    let readInfo: @Sendable (InfoRead) async throws(DFUError) -> DeviceInfo
    /// The update session: its layout, peers, and the stages run with it.
    let updateProtocol: AnyUpdateProtocol

    init<Protocol: UpdateProtocol>(
        _ updateProtocol: Protocol, description: String, files: String, fileKinds: [UpdateFileKind],
        recognise: @escaping @Sendable ([UInt8]) -> FileClaim?, advertisedService: ServiceID, scanColumn: String,
        scanJSONName: String, serialProbes: [SerialProbe], runsHint: String, reportsRunningImageHash: Bool, readInfo: @escaping @Sendable (InfoRead) async throws(DFUError) -> DeviceInfo
    ) {
        name = updateProtocol.name
        self.description = description
        self.files = files
        self.fileKinds = fileKinds
        self.recognise = recognise
        self.advertisedService = advertisedService
        self.scanColumn = scanColumn
        self.scanJSONName = scanJSONName
        self.serialProbes = serialProbes
        self.runsHint = runsHint
        self.reportsRunningImageHash = reportsRunningImageHash
        self.readInfo = readInfo
        self.updateProtocol = AnyUpdateProtocol(updateProtocol)
    }

    /// The GATT items the protocol needs on a device.
    var layout: any GATTLayout { updateProtocol.layout }
}
