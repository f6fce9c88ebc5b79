import Transport

/// Nordic Secure DFU (nRF5 SDK bootloaders) with `.zip` packages made by nrfutil: the second
/// `UpdateProtocol` (nordic-secure-dfu.md).
///
/// - verify-image: `NordicPreparedPackage` (hash, size and signature of every image, as
///   `dfu verify` checks them).
/// - connect: a bootloader (Control Point + Packet) or an application with buttonless DFU
///   (`NordicGATT`); a `NordicSession` on the link.
/// - the rest is `NordicUpdateSession`.
struct NordicUpdateProtocol: UpdateProtocol {
    var layout: any GATTLayout { NordicGATT.bootloaderOrButtonless }

    func prepare(_ bytes: [UInt8], key: PublicKey?, options: UpdateOptions) throws(DFUError) -> NordicPreparedPackage {
        try NordicPreparedPackage(bytes: bytes, key: key, allowUnsigned: options.allowUnsigned)
    }

    func client(on link: any Link, context: SessionContext) async throws(LinkError) -> NordicSession {
        try await NordicSession(link: link, clock: context.clock.model)
    }

    func open(_ connection: DeviceConnection<NordicSession>, context: SessionContext) async throws(DFUError) -> NordicUpdateSession {
        NordicUpdateSession(connection: connection, context: context, applicationPeer: connection.peer)
    }
}

extension NordicSession: LinkClient {}
