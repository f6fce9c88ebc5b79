/// The checks made before the first byte goes to the device. Pure: the facts come in, the verdict
/// goes out, so every rule is tested without a device.
public enum Preconditions {
    public struct Verdict: Sendable, Equatable {
        public var failures: [PreconditionFailure]
        /// Checks that could not be made (the device did not report the fact); shown, not fatal.
        public var warnings: [String]
        public var passed: Bool { failures.isEmpty }
    }

    /// One image the update sends, with what the device reports for its image index.
    public struct ImageCheck: Sendable, Equatable {
        /// Names the image in failures and warnings when the update sends several; nil for one.
        public var name: UpdateImageName?
        public var version: ImageVersion
        public var size: Int
        public var runningVersion: ImageVersion?
        public var slotSize: Int?
        /// The two versions in the protocol's own words where they are not MCUboot's (a Nordic
        /// package's `application fw_version 3`, its application's firmware revision), for messages.
        public var versionText: String?
        public var runningVersionText: String?

        public init(name: UpdateImageName? = nil, version: ImageVersion, size: Int, runningVersion: ImageVersion?,
                    slotSize: Int?, versionText: String? = nil, runningVersionText: String? = nil) {
            self.name = name
            self.version = version
            self.size = size
            self.runningVersion = runningVersion
            self.slotSize = slotSize
            self.versionText = versionText
            self.runningVersionText = runningVersionText
        }
    }

    /// An update of one image, checked against the device's running version and slot size.
    public static func check(imageVersion: ImageVersion, imageSize: Int, device: DeviceFacts,
                             host: HostPower, options: UpdateOptions) -> Verdict {
        check(images: [ImageCheck(version: imageVersion, size: imageSize, runningVersion: device.runningVersion,
                                  slotSize: device.slotSize)],
              device: device, host: host, options: options)
    }

    /// An update of several images: each against its own image index's running version and slot.
    public static func check(images: [ImageCheck], device: DeviceFacts, host: HostPower,
                             options: UpdateOptions) -> Verdict {
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
        }
        for image in images {
            let named: (PreconditionFailure) -> PreconditionFailure = { failure in
                image.name.map { .inImage($0, failure) } ?? failure
            }
            if !options.requireNewer {
                if let running = image.runningVersion {
                    if !options.allowDowngrade && image.version <= running {
                        failures.append(named(.notNewer(image: image.version, running: running, imageText: image.versionText,
                                                        runningText: image.runningVersionText)))
                    }
                } else {
                    warnings.append((image.name.map { "\($0): " } ?? "")
                                    + "device did not report its running version; downgrade check skipped")
                }
            }
            if let slotSize = image.slotSize, image.size > slotSize {
                failures.append(named(.imageTooLarge(size: image.size, slotSize: slotSize)))
            }
        }

        switch host {
        case .mains, .unknown:
            break
        case .battery(let level):
            if !options.allowHostOnBattery { failures.append(.hostOnBattery(level: level)) }
        }
        return Verdict(failures: failures, warnings: warnings)
    }

    /// The battery read again after the transfer, before anything activates the update: a transfer
    /// can take minutes, and MCUboot's swap at the next reset is the step a brown-out must not cut.
    /// Below the same `--min-battery`, the run stops with the image uploaded and not activated.
    public static func batteryBeforeActivation(level: Int, options: UpdateOptions) -> PreconditionFailure? {
        level < options.minimumBattery ? .batteryFell(level: level, minimum: options.minimumBattery) : nil
    }
}
