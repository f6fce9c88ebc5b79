import DFUCore
import Transport

/// From options to the things a run needs: the identity, the link profile, the device itself.
extension SimOptions {
    /// `id`, or one derived from every other option but `timescale` (FNV-1a over `deviceText`),
    /// shaped like a BLE random static address: six bytes, the top two bits set. The same options
    /// always give the same identity, so a journal can recognise the device across runs.
    public var identity: PeerIdentity {
        if let id { return PeerIdentity(id) }
        return .derived(from: deviceText)
    }

    /// The memory link's radio model for `mtu`, `phy`, `interval` and `drop_report` (other knobs at their defaults).
    public func linkProfile() throws(SimOptionsError) -> LinkProfile {
        do {
            return try LinkProfile(phy: phy, connectionInterval: interval, attMTU: mtu, dropReportDelay: dropReportDelay)
        } catch {
            throw .inconsistent("\(error)")
        }
    }

    /// The SMP server's Kconfig from `buf_size`, `buf_count`, `reassembly` and `reset_ms`.
    public var serverConfiguration: SMPServerConfiguration {
        var configuration = SMPServerConfiguration(bufferSize: bufferSize, bufferCount: bufferCount,
                                                   framing: reassembly ? .reassembly : .onePacketPerWrite,
                                                   resetDelay: .milliseconds(resetMilliseconds))
        configuration.kind = deviceKind
        return configuration
    }

    /// The device these options describe. Reads the `key` file, if one was given. `framing`
    /// overrides what `reassembly` says: a UDP server passes `.datagram` (one packet per datagram,
    /// like Zephyr's UDP transport) and connects the device with `notificationSize: nil`.
    public func deviceConfiguration(framing: SMPServerConfiguration.Framing? = nil) throws(SimOptionsError) -> DeviceConfiguration {
        guard simProtocol == .smp else { throw .inconsistent("protocol=\(simProtocol.rawValue) is served by its own device, not the SMP one") }
        try checkProtocolFit()
        let key = try bootloaderKey(defaultSource: DefaultBootloaderKey.source) { () throws(ImageError) in
            try PublicKey.defaultBootloaderKey()
        }
        var decryptionKey: ImageDecryptionKey?
        if let encryptionKeyPath {
            do throws(ImageError) {
                decryptionKey = try ImageDecryptionKey.load(path: encryptionKeyPath)
            } catch {
                switch error {
                case .keyUnusable(_, let why), .keyUnreadable(_, let why):
                    throw .encryptionKeyUnusable(path: encryptionKeyPath, reason: why)
                default: break
                }
                throw .encryptionKeyUnusable(path: encryptionKeyPath, reason: error.description)
            }
        }
        var server = serverConfiguration
        if let framing { server.framing = framing }
        return DeviceConfiguration(identity: identity, runningVersion: version, bootloaderKey: key, decryptionKey: decryptionKey,
                                   slotSize: slotSize, swapMode: swapMode, server: server, batteryLevel: battery, faults: faults,
                                   imageCount: imageCount)
    }

    public func makeDevice(framing: SMPServerConfiguration.Framing? = nil) throws(SimOptionsError) -> VirtualDevice {
        let configuration = try deviceConfiguration(framing: framing)
        do {
            return try VirtualDevice(configuration: configuration)
        } catch {
            throw .inconsistent(error.description)
        }
    }

    /// The `key` file, or the protocol's built-in test key; a key that cannot be used names its file.
    func bootloaderKey(defaultSource: String,
                       default makeDefault: () throws(ImageError) -> PublicKey) throws(SimOptionsError) -> PublicKey {
        do throws(ImageError) {
            if let keyPath { return try PublicKey.load(path: keyPath) }
            return try makeDefault()
        } catch {
            let reason: String
            switch error {
            case .keyUnusable(_, let why), .keyUnreadable(_, let why): reason = why
            default: reason = error.description
            }
            throw .keyUnusable(path: keyPath ?? defaultSource, reason: reason)
        }
    }
}
