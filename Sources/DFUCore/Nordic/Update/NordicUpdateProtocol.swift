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

    /// The application, or its bootloader at the address + 1 (§1.3) when an earlier run left the
    /// device in DFU mode: the same command run again resumes there.
    func peers(for peer: PeerIdentity) -> [PeerIdentity] {
        [peer] + (BootloaderAddress.incremented(peer).map { [$0] } ?? [])
    }

    func prepare(_ bytes: [UInt8], key: PublicKey?, options: UpdateOptions) throws(DFUError) -> NordicPreparedPackage {
        try NordicPreparedPackage(bytes: bytes, key: key, allowUnsigned: options.allowUnsigned)
    }

    func client(on link: any Link, context: SessionContext) async throws(LinkError) -> NordicSession {
        try await NordicSession(link: link, clock: context.clock.model)
    }

    func open(_ connection: DeviceConnection<NordicSession>, context: SessionContext) async throws(DFUError) -> NordicUpdateSession {
        let applicationPeers = applicationPeers(connection)
        // A device found in its bootloader stays there until the update ends: reconnect only there.
        if NordicGATT.isBootloader(connection.link.services) {
            connection.retarget(to: [connection.peer], layout: NordicGATT.bootloader)
        }
        return NordicUpdateSession(connection: connection, context: context, applicationPeers: applicationPeers)
    }

    /// Where the application answers after the update: where it was found, or, when the device was
    /// found in its bootloader, at that address − 1 (the bootloader without bonds) or the same
    /// address (with bonds).
    private func applicationPeers(_ connection: DeviceConnection<NordicSession>) -> [PeerIdentity] {
        let peer = connection.peer
        guard NordicGATT.isBootloader(connection.link.services) else { return [peer] }
        return (BootloaderAddress.decremented(peer).map { [$0] } ?? []) + [peer]
    }
}

extension NordicSession: LinkClient {}
