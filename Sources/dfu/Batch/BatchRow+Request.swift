import DFUCore
import BlueZTransport

extension BatchRow {
    /// The row as an update request: its cells, and `defaults` (the batch's own options) where a
    /// cell is empty; `adapter` is the one the scheduler gave a Bluetooth row. The passkey cell
    /// comes back beside the request, never in it (a request is journaled). Each cell is checked
    /// as what it is, and the first that cannot be used is named with its column.
    func request(defaults: BatchDefaults, adapter: String?) throws(BatchRowProblem) -> (request: FlashRequest, passkey: Passkey?) {
        func problem(_ column: String, _ reason: String) -> BatchRowProblem {
            BatchRowProblem(line: line, column: column, reason: reason)
        }
        var passkeyValue: Passkey?
        if let passkey {
            // The digits are never quoted: a passkey is a secret, also a mistyped one.
            guard let parsed = Passkey(text: passkey) else { throw problem("passkey", "must be six digits, 000000 to 999999") }
            passkeyValue = parsed
        }
        let spec: DeviceSpec
        do throws(DeviceSpec.Invalid) { spec = try DeviceSpec(reading: device) } catch {
            throw problem("device", "invalid device '\(writtenDevice)': \(error.reason)")
        }
        var request = FlashRequest(imagePath: image, device: spec.description)
        request.keyPath = key ?? defaults.key
        request.expectVersion = expectVersion
        request.mode = defaults.mode ?? .testConfirm
        if let mode {
            guard let parsed = ActivationMode(rawValue: mode.lowercased()) else {
                let modes = ActivationMode.allCases.map(\.rawValue)
                throw problem("mode", "'\(mode)' is not a mode; give one of "
                              + modes.dropLast().joined(separator: ", ") + " or " + (modes.last ?? ""))
            }
            request.mode = parsed
        }
        if let minBattery {
            guard let percent = Int(minBattery), (0 ... 100).contains(percent) else {
                throw problem("min_battery", "'\(minBattery)' is not a percentage from 0 to 100")
            }
            request.minimumBattery = percent
        } else if let percent = defaults.minBattery {
            request.minimumBattery = percent
        }
        if request.expectVersion != nil, request.mode == .uploadOnly {
            throw problem("expect_version", "cannot be checked with mode upload-only: the device does not start the new "
                          + "image, so it never reports its version. Leave one of them out.")
        }
        request.allowDowngrade = defaults.allowDowngrade
        request.allowUnsigned = defaults.allowUnsigned
        request.allowHostOnBattery = defaults.allowHostBattery
        request.pair = defaults.pair
        request.dryRun = defaults.dryRun
        request.timeouts = defaults.timeouts
        request.adapter = adapter
        if !spec.isBluetooth {
            if adapter != nil {
                throw problem("device", "'\(writtenDevice)' is not a Bluetooth device; --adapter applies only to those")
            }
            if passkeyValue != nil {
                throw problem("passkey", "is for Bluetooth devices; it does not apply to device '\(writtenDevice)'")
            }
            if request.pair {
                throw problem("device", "'\(writtenDevice)' is not a Bluetooth device; --pair applies only to those")
            }
        }
        return (request, passkeyValue)
    }
}
