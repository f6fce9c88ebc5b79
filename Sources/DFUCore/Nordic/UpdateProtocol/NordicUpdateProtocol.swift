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
    var name: UpdateProtocolName { .nordic }
    var layout: any GATTLayout { NordicGATT.bootloaderOrButtonless }
    var activatesItself: Bool { true }

    /// The application, or its bootloader when an earlier run left the device in DFU mode: at the
    /// address + 1 (§1.3), or under the name that run gave it (`--bootloader-name`, or the one the
    /// journal kept: a bootloader with an address of its own is found only by it). The same
    /// command run again resumes there.
    func peers(for peer: PeerIdentity, options: UpdateOptions) -> [PeerIdentity] {
        let names = [options.bootloaderName, options.earlierBootloaderName].compactMap { $0 }
        var peers = [peer] + (BootloaderAddress.incremented(peer).map { [$0] } ?? [])
        for name in names where !peers.contains(BootloaderPeers.named(name)) { peers.append(BootloaderPeers.named(name)) }
        return peers
    }

    /// The package, checked. `--mode test-only` and `upload-only` promise what an nRF5 bootloader
    /// cannot do: it activates the firmware when the transfer ends, with no test boot and nothing
    /// left to confirm (test-confirm and confirm-only both end with it activated).
    func prepare(_ bytes: [UInt8], key: PublicKey?, options: UpdateOptions) throws(DFUError) -> NordicPreparedPackage {
        let package = try NordicPreparedPackage(bytes: bytes, key: key, allowUnsigned: options.allowUnsigned)
        switch options.mode {
        case .testConfirm, .confirmOnly:
            return package
        case .testOnly, .uploadOnly:
            throw .usage("--mode \(options.mode.rawValue) does not apply to a Nordic DFU package: the nRF5 bootloader "
                         + "activates the new firmware as soon as the transfer ends; it has no test boot and no confirm "
                         + "step. Leave --mode out.")
        }
    }

    func client(on link: any Link, context: SessionContext) async throws(LinkError) -> NordicSession {
        try await NordicSession(link: link, clock: context.clock.model)
    }

    func open(_ connection: DeviceConnection<NordicSession>, context: SessionContext) async throws(DFUError) -> NordicUpdateSession {
        if NordicUpdateSession.isSerial(connection.link), let expected = context.options.expectedVersion {
            // Checked before anything is sent: the update would end with nothing to check it against.
            throw .usage("--expect-version \(expected) cannot be checked over a serial port: only the bootloader answers "
                         + "there, and the application it starts after the update reports nothing. Leave it out.")
        }
        let applicationPeers = applicationPeers(connection)
        // A device found in its bootloader stays there until the update ends: reconnect only there.
        if NordicGATT.isBootloader(connection.link.services) {
            connection.retarget(to: [connection.peer], layout: NordicGATT.bootloader)
        }
        return NordicUpdateSession(connection: connection, context: context, applicationPeers: applicationPeers,
                                   declinedParts: Locked([]))
    }

    /// Where the application answers after the update: where it was found, or, when the device was
    /// found in its bootloader, the device the user named (first of `peers(for:options:)`), that
    /// address − 1 (the bootloader without bonds) or the same address (with bonds). A bootloader
    /// found by its name has no address to derive the application's from: only the user's is left.
    private func applicationPeers(_ connection: DeviceConnection<NordicSession>) -> [PeerIdentity] {
        let peer = connection.peer
        guard NordicGATT.isBootloader(connection.link.services) else { return [peer] }
        var peers = connection.peers.prefix(1) + (BootloaderAddress.decremented(peer).map { [$0] } ?? [])
        if !BootloaderPeers.isName(peer) { peers.append(peer) }
        return peers.reduce(into: []) { unique, next in if !unique.contains(next) { unique.append(next) } }
    }
}

extension NordicSession: LinkClient {}
