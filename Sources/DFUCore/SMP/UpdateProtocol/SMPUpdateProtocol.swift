import Transport

/// MCUmgr SMP with MCUboot images: the first `UpdateProtocol` (smp-mcuboot.md).
///
/// - verify-image: `ImageVerifier` as `dfu verify` (`PreparedImage`), for one image or every image
///   of an nRF Connect SDK zip (`SMPUpdate`).
/// - connect: the SMP service and characteristic (`SMPGATT`), an `SMPSession` on the link (it
///   subscribes), then the MCUmgr parameters size the packets and the window (`buf_count − 1`),
///   and an echo finds out whether the device reassembles (`SMPDeviceStateReader.negotiate`).
/// - the rest is `SMPUpdateSession`.
struct SMPUpdateProtocol: UpdateProtocol {
    var layout: any GATTLayout { SMPGATT.layout }

    func peers(for peer: PeerIdentity, options: UpdateOptions) -> [PeerIdentity] { [peer] }
    var activatesItself: Bool { false }

    var name: UpdateProtocolName { .smp }

    /// An MCUboot image to `--image N` (0 by default), or an nRF Connect SDK zip's images each to
    /// the index its manifest gives. `--expect-version` is held to the first image's version here
    /// (`ExpectedImageVersion.checked`) and to what the device reports after the reboot.
    func prepare(_ bytes: [UInt8], key: PublicKey?, options: UpdateOptions) throws(DFUError) -> SMPUpdate {
        var update: SMPUpdate
        if UpdateFileKind(of: bytes) == .ncsPackage {
            if options.imageIndex != nil {
                throw .usage("--image is for a single MCUboot image; an nRF Connect SDK zip gives each image's index in its "
                             + "manifest. Leave --image out.")
            }
            update = try SMPUpdate(ncsZip: bytes, key: key)
        } else {
            update = SMPUpdate(image: try PreparedImage(bytes: bytes, key: key), index: options.imageIndex ?? 0)
        }
        update.expected = try ExpectedImageVersion.checked(options.expectedVersion, against: update.main.image,
                                                           name: update.hasSeveralImages ? update.main.name : nil)
        return update
    }

    func client(on link: any Link, context: SessionContext) async throws(LinkError) -> SMPSession {
        try await SMPSession(link: link, configuration: SMPSession.Configuration(requestTimeout: context.deadlines.request),
                             clock: context.clock.model)
    }

    func open(_ connection: DeviceConnection<SMPSession>, context: SessionContext) async throws(DFUError) -> SMPUpdateSession {
        let reader = SMPDeviceStateReader(connection: connection, context: context)
        let negotiated = try await reader.negotiate()
        return SMPUpdateSession(connection: connection, context: context, negotiated: negotiated)
    }
}

extension SMPSession: LinkClient {}
