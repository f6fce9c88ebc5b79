/// The checks made before the first byte goes to the device. Pure: the facts come in, the verdict
/// goes out, so every rule is tested without a device.
public enum Preconditions {
    public struct Verdict: Sendable, Equatable {
        public var failures: [PreconditionFailure]
        /// Checks that could not be made (the device did not report the fact); shown, not fatal.
        public var warnings: [String]
        public var passed: Bool { failures.isEmpty }
    }

    public static func check(imageVersion: ImageVersion, imageSize: Int, device: DeviceFacts,
                             host: HostPower, options: UpdateOptions) -> Verdict {
        var failures: [PreconditionFailure] = []
        var warnings: [String] = []

        // Nothing else matters for a device dfu cannot update: say only that.
        if let what = device.unsupported { return Verdict(failures: [.unsupportedDevice(what)], warnings: []) }

        if let level = device.batteryLevel {
            if level < options.minimumBattery {
                failures.append(.batteryLow(level: level, minimum: options.minimumBattery))
            }
        } else if options.minimumBattery > 0 {
            warnings.append("device has no Battery Service; battery level not checked")
        }

        if options.requireNewer {
            warnings.append("the version is checked by the device (--require-newer): it refuses an image that is not newer")
        } else if let running = device.runningVersion {
            if !options.allowDowngrade && imageVersion <= running {
                failures.append(.notNewer(image: imageVersion, running: running))
            }
        } else {
            warnings.append("device did not report its running version; downgrade check skipped")
        }

        if let slotSize = device.slotSize, imageSize > slotSize {
            failures.append(.imageTooLarge(size: imageSize, slotSize: slotSize))
        }

        switch host {
        case .mains, .unknown:
            break
        case .battery(let level):
            if !options.allowHostOnBattery { failures.append(.hostOnBattery(level: level)) }
        }
        return Verdict(failures: failures, warnings: warnings)
    }
}
