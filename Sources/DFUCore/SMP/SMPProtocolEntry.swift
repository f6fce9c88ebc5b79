import Transport

/// MCUmgr SMP with MCUboot images, as the protocol registry lists it (`ProtocolRegistry.all`).
extension ProtocolEntry {
    static let smp = ProtocolEntry(
        SMPUpdateProtocol(),
        description: "SMP (MCUmgr)",
        files: "a signed MCUboot image or an nRF Connect SDK dfu_application.zip",
        fileKinds: [.mcubootImage, .ncsPackage],
        recognise: { bytes in
            // A zip is ours only with an NCS manifest; any other file goes to the MCUboot image
            // parser, which says what is wrong with one that is not an image.
            if !ZipArchive.looksLikeZip(bytes) { return FileClaim(kind: .mcubootImage, strength: .lastResort) }
            return NCSPackage.looksLikeNCSPackage(bytes) ? FileClaim(kind: .ncsPackage, strength: .content) : nil
        },
        advertisedService: DFUServiceIDs.smp,
        scanColumn: "SMP",
        scanJSONName: "smp",
        serialProbes: SMPSerialProbe.all,
        runsHint: "firmware with MCUmgr (SMP)",
        reportsRunningImageHash: true,
        readInfo: { reading throws(DFUError) in try await reading.smp() })
}

extension UpdateProtocolName {
    /// MCUmgr SMP with MCUboot images.
    public static let smp = UpdateProtocolName(declaring: "smp")
}

extension UpdateFileKind {
    /// A signed MCUboot image (`imgtool sign`).
    public static let mcubootImage = UpdateFileKind(rawValue: "mcuboot-image")
    /// An nRF Connect SDK dfu_application.zip: MCUboot images for one or more image indexes.
    public static let ncsPackage = UpdateFileKind(rawValue: "ncs-package")
}

extension DFUServiceIDs {
    /// Zephyr's SMP service (MCUmgr over BLE), `8D53DC1D-1DB7-4CD3-868B-8A527460AA84`.
    public static let smp: ServiceID = SMPGATT.service
}
