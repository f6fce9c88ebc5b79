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
                    earlierBootloaderName: String? = nil,
                    log: @escaping @Sendable (String) -> Void) async throws(DFUError) -> (UpdateEngine, DeviceTarget) {
        var publicKey: PublicKey?
        if let keyPath {
            do throws(ImageError) { publicKey = try PublicKey.load(path: keyPath) } catch { throw .image(error) }
        }
        let pairing = BlueZPairing(input: PairingOptions.input(passkey: passkey), pairFirst: pair)
        let deviceTarget = try await DeviceTarget.make(try deviceSpec, adapter: adapter, fullAddresses: fullAddresses,
                                                       pairing: pairing, connectGate: connectGate,
                                                       speaking: ProtocolRegistry.recognise(bytes)?.entry.name, log: log)
        let hostPower = deviceTarget.checksHostPower ? HostPowerReader().read() : .unknown
        let engine = UpdateEngine(image: bytes, imageName: imageName, key: publicKey,
                                  options: updateOptions(earlierBootloaderName: earlierBootloaderName),
                                  target: deviceTarget.target, hostPower: hostPower, clock: deviceTarget.clock)
        return (engine, deviceTarget)
    }

    /// The warning for an image index whose test-confirm becomes confirm-only; nil otherwise.
    var modeWarning: String? {
        guard let imageIndex, effectiveMode != mode else { return nil }
        return "image \(imageIndex) is updated confirm-only: MCUmgr does not confirm the running image of an image "
            + "index other than 0 after the reboot, so it is made permanent before the reset (no revert)"
    }
}
