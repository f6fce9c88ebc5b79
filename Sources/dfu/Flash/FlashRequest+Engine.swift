import BlueZTransport
import DFUCore
import Transport

/// A request made into the engine that runs it: its device parsed back from the canonical text,
/// its key read, its options the engine's.
extension FlashRequest {
    /// The device the request names. Its text is canonical (`DeviceSpec.description`), so this
    /// fails only for a request no front end built (an edited journal).
    var deviceSpec: DeviceSpec {
        get throws(DFUError) {
            do throws(DeviceSpec.Invalid) { return try DeviceSpec(reading: device) } catch {
                throw .usage("invalid device '\(device)': \(error.reason)")
            }
        }
    }

    /// `app.signed.bin` for `build/zephyr/app.signed.bin`: what the progress lines call the image.
    var imageName: String { FlashCommand.fileName(imagePath) }

    /// Reads the key and sets up the device, for the update file's `bytes`. `passkey` answers a
    /// device that asks to pair (else the terminal is asked, when there is one); `log` gets the
    /// BlueZ connector's diagnostic lines; `connectGate` is shared by the runs that use one adapter.
    func makeEngine(image bytes: [UInt8], passkey: Passkey?, fullAddresses: Bool, connectGate: BlueZConnectGate? = nil,
                    earlierBootloaderName: String? = nil, earlierVersionBefore: String? = nil,
                    log: @escaping @Sendable (String) -> Void) async throws(DFUError) -> (UpdateEngine, DeviceTarget) {
        var publicKey: PublicKey?
        if let keyPath {
            do throws(ImageError) { publicKey = try PublicKey.load(path: keyPath) } catch { throw .image(error) }
        }
        // Checked before the device is set up: a wrong combination is the user's, whatever the device.
        let recovery = try serialRecovery(speaking: ProtocolRegistry.recognise(bytes)?.entry.name)
        let pairing = BlueZPairing(input: PairingOptions.input(passkey: passkey), pairFirst: pair)
        let deviceTarget = try await DeviceTarget.make(try deviceSpec, adapter: adapter, fullAddresses: fullAddresses,
                                                       pairing: pairing, connectGate: connectGate,
                                                       speaking: ProtocolRegistry.recognise(bytes)?.entry.name, log: log)
        let hostPower = deviceTarget.checksHostPower ? HostPowerReader().read() : .unknown
        var options = updateOptions(earlierBootloaderName: earlierBootloaderName, earlierVersionBefore: earlierVersionBefore)
        options.serialRecovery = recovery
        if recovery != nil {
            // MCUboot's recovery has no `upgrade` rule: dfu's own version check (the same rule) stands.
            options.requireNewer = false
        }
        let engine = UpdateEngine(image: bytes, imageName: imageName, key: publicKey, options: options,
                                  target: deviceTarget.target, hostPower: hostPower, clock: deviceTarget.clock)
        return (engine, deviceTarget)
    }

    /// MCUboot's serial recovery, as the device (`serial:PATH,recovery`) or `--enter-recovery` asks;
    /// nil otherwise. Recovery writes the primary slot, which boots for good, so only test-confirm
    /// (the default: the application is checked, and confirmed if it is not, after the reset) and
    /// upload-only (no reset) mean something there.
    func serialRecovery(speaking protocolName: UpdateProtocolName?) throws(DFUError) -> MCUbootRecovery? {
        guard case .serial(let endpoint) = try deviceSpec else {
            if enterRecovery == true {
                throw .usage("--enter-recovery needs a serial device (serial:PATH): MCUboot's serial recovery listens on a "
                             + "UART or USB port, not on \(device)")
            }
            return nil
        }
        let recovery: MCUbootRecovery
        switch (endpoint.recovery, enterRecovery == true) {
        case (false, false): return nil
        case (true, true):
            throw .usage("--enter-recovery resets a running application into recovery, and serial:…,recovery says the "
                         + "device already waits there: give one of them")
        case (true, false): recovery = .inRecovery
        case (false, true): recovery = .enterFromApplication
        }
        if let protocolName, protocolName != .smp {
            throw .usage("MCUboot's serial recovery takes MCUboot images; \(imageName) is an update for \(protocolName)")
        }
        if mode == .testOnly || mode == .confirmOnly {
            throw .usage("MCUboot's serial recovery writes the primary slot, which boots for good: there is no test boot or "
                         + "confirm step for --mode \(mode.rawValue). Leave --mode out (or use upload-only: no reset).")
        }
        return recovery
    }

    /// The warning for an image index whose test-confirm becomes confirm-only; nil otherwise.
    var modeWarning: String? {
        guard let imageIndex, effectiveMode != mode else { return nil }
        return "image \(imageIndex) is updated confirm-only: MCUmgr does not confirm the running image of an image "
            + "index other than 0 after the reboot, so it is made permanent before the reset (no revert)"
    }
}
