import Transport

/// Nordic Secure DFU with nrfutil packages, as the protocol registry lists it (`ProtocolRegistry.all`).
extension ProtocolEntry {
    static let nordic = ProtocolEntry(
        NordicUpdateProtocol(),
        description: "Nordic Secure DFU",
        files: "a Nordic DFU package (nrfutil pkg generate)",
        fileKinds: [.nordicPackage],
        recognise: { bytes in
            // Any zip another protocol does not claim by its content: the package parser says what
            // is wrong with one that is not a Nordic DFU package.
            ZipArchive.looksLikeZip(bytes) ? FileClaim(kind: .nordicPackage, strength: .container) : nil
        },
        advertisedService: DFUServiceIDs.nordicSecureDFU,
        scanColumn: "Nordic DFU",
        scanJSONName: "nordic-secure-dfu",
        serialProbes: [NordicSerialProbe.ping],
        runsHint: "an nRF5 SDK secure bootloader or buttonless DFU application",
        reportsRunningImageHash: false,
        readInfo: { reading throws(DFUError) in try await reading.nordic() })
}

extension UpdateProtocolName {
    /// Nordic Secure DFU (nRF5 SDK bootloaders) with Nordic DFU packages.
    public static let nordic = UpdateProtocolName(declaring: "nordic")
}

extension UpdateFileKind {
    /// A Nordic DFU package (`nrfutil pkg generate`).
    public static let nordicPackage = UpdateFileKind(rawValue: "nordic-package")
}

extension DFUServiceIDs {
    /// Nordic Secure DFU, 16-bit `0xFE59` (SIG-assigned to Nordic): its bootloader and the
    /// buttonless-DFU applications advertise it.
    public static let nordicSecureDFU = NordicDFUService.service
}
