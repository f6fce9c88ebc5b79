import Transport

/// MCUmgr SMP with MCUboot images: the first `UpdateProtocol` (smp-mcuboot.md).
///
/// - verify-image: `ImageVerifier` as `dfu verify` (`PreparedImage`).
/// - connect: the SMP service and characteristic (`SMPGATT`), an `SMPSession` on the link (it
///   subscribes), then the MCUmgr parameters size the packets and the window (`buf_count − 1`),
///   and an echo finds out whether the device reassembles (`SMPDeviceStateReader.negotiate`).
/// - the rest is `SMPUpdateSession`.
struct SMPUpdateProtocol: UpdateProtocol {
    var layout: any GATTLayout { SMPGATT.layout }

    func peers(for peer: PeerIdentity) -> [PeerIdentity] { [peer] }

    func prepare(_ bytes: [UInt8], key: PublicKey?, options: UpdateOptions) throws(DFUError) -> PreparedImage {
        try PreparedImage(bytes: bytes, key: key)
    }

    func client(on link: any Link, context: SessionContext) async throws(LinkError) -> SMPSession {
        try await SMPSession(link: link, configuration: SMPSession.Configuration(requestTimeout: context.deadlines.request),
                             clock: context.clock.model)
    }

    func open(_ connection: DeviceConnection<SMPSession>, context: SessionContext) async throws(DFUError) -> SMPUpdateSession {
        let reader = SMPDeviceStateReader(connection: connection, device: context.device,
                                          requestTimeout: context.deadlines.request,
                                          log: context.log, warn: context.warn)
        let negotiated = try await reader.negotiate()
        return SMPUpdateSession(connection: connection, context: context, negotiated: negotiated)
    }
}

extension SMPSession: LinkClient {}

extension PreparedImage: PreparedUpdate {
    var size: Int { bytes.count }
}
