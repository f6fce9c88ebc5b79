import Transport

/// What the engine tells its caller while an update runs. The CLI renders these as a terminal view or
/// as one JSON object per line; a library caller may do anything with them. Events carry no image
/// bytes and no key material.
public enum UpdateEvent: Sendable, Equatable {
    case stageStarted(UpdateStage)
    /// A stage ended successfully after `duration` (shown by `--verbose`).
    case stageFinished(UpdateStage, duration: Duration)
    case imageChecked(ImageSummary)
    case connected(ConnectionSummary)
    case deviceState(DeviceFacts)
    case preconditionsPassed(Preconditions.Verdict)
    /// A dry run ends here: every check passed and this is what the real run would do.
    case dryRunPassed(DryRunVerdict)
    /// The transfer of one part of an update with several begins (a Nordic package's system part,
    /// then its application); not sent for an update of one part.
    case partStarted(UpdatePart)
    /// Upload progress as the device acknowledged it.
    case progress(TransferProgress)
    /// The device came back after a link loss and the upload continues from `offset`.
    case resumed(offset: Int, attempt: Int)
    case activated(ActivationMode)
    case rebooting
    /// The application agreed to name its bootloader `name` (Nordic buttonless set-name): where the
    /// bootloader is looked for, and what a later run looks for if this one is cut off (journal).
    case bootloaderNamed(String)
    case reconnected(ConnectionSummary)
    /// The device reports the new image running (and confirmed, when the mode confirms). `image`
    /// names it in an update of several images (one event each, the first image's last).
    case versionConfirmed(version: ImageVersion, confirmed: Bool, image: UpdateImageName? = nil)
    /// An update without a confirm step (Nordic Secure DFU): the device's bootloader activated it
    /// when the transfer ended (the final Execute: it validates the firmware, resets and starts it)
    /// and the device came back. `update` names what was activated as the update file does
    /// (`application fw_version 3`); `firmwareRevision` is what the application reports (Device
    /// Information; nil: nothing). `activated` is false when nothing was sent: the device already
    /// reported the expected version.
    case firmwareReported(update: String, firmwareRevision: String?, activated: Bool)
    /// MCUboot's serial recovery wrote the image into its primary slot and lists it as valid
    /// there, by its hash (`hashChecked`) or, built without hashes in its list, by its version;
    /// its reset boots it. `versionConfirmed` follows when the application answers SMP afterwards.
    case writtenByRecovery(version: ImageVersion, hashChecked: Bool, image: UpdateImageName? = nil)
    case warning(String)
    /// A diagnostic line for `--verbose`.
    case log(String)
}

public struct ImageSummary: Sendable, Equatable {
    public var version: ImageVersion
    /// The version as the file states it: `1.1.0+0` for an MCUboot image, `fw_version 3` for a
    /// Nordic package (an integer the application need not report).
    public var versionText: String
    public var size: Int
    public var sha256: [UInt8]
    /// "ECDSA P-256", … or nil when no key was given.
    public var signatureChecked: String?
    /// Which image of an update with several (one summary each); nil for an update of one image.
    public var image: UpdateImageName?
    /// The SHA256 TLV was checked against the image (not for an encrypted one: it covers the plaintext).
    public var hashChecked = true
    /// The image carries a signature (checked or not); false for an image signed without a key.
    public var isSigned = true

    public init(version: ImageVersion, versionText: String? = nil, size: Int, sha256: [UInt8], signatureChecked: String?,
                image: UpdateImageName? = nil) {
        self.image = image
        self.version = version
        self.versionText = versionText ?? version.description
        self.size = size
        self.sha256 = sha256
        self.signatureChecked = signatureChecked
    }
}

public struct ConnectionSummary: Sendable, Equatable {
    /// The device's identity, shortened unless the user asked for full detail: for people.
    public var device: String
    /// The device in full, as the user can name it again (`AA:BB:CC:DD:EE:FF`, `name:NAME`,
    /// `udp:HOST:PORT`, the virtual device's address): for records, where two devices whose
    /// shortened names agree must stay apart.
    public var identity: String
    public var attMTU: Int
    public var maxWrite: Int
    public var phy: String?
    public var connectionInterval: Duration?
    /// Upload requests kept in flight.
    public var window: Int
    /// The link's ceiling for this upload in bytes/s (radio or device flash, the lower), when modelled.
    public var ceiling: Double?
    /// Pairing and encryption, where the transport has them (BlueZ).
    public var security: LinkSecurity?

    /// `identity` nil: `device` is already the full identity.
    public init(device: String, identity: String? = nil, attMTU: Int, maxWrite: Int, phy: String?,
                connectionInterval: Duration?, window: Int, ceiling: Double?, security: LinkSecurity? = nil) {
        self.security = security
        self.device = device
        self.identity = identity ?? device
        self.attMTU = attMTU
        self.maxWrite = maxWrite
        self.phy = phy
        self.connectionInterval = connectionInterval
        self.window = window
        self.ceiling = ceiling
    }
}

public struct TransferProgress: Sendable, Equatable {
    /// Bytes the device has acknowledged (its `off`).
    public var acknowledged: Int
    public var total: Int
    /// Time since the transfer started (first chunk sent), in the engine's clock (model time for a
    /// virtual device with a time scale).
    public var elapsed: Duration
    /// Goodput so far, bytes/s: the bytes acknowledged after the device's first answer, over the
    /// time since that answer (whose wait, the erase, is excluded).
    public var rate: Double
    /// The part being sent (bytes and total are the part's), when the update has more than one.
    public var part: UpdatePart?
    /// What the device already held when this transfer began: where it resumed an upload an
    /// earlier run left (its first answer said so); 0 for a transfer from the start.
    public var startOffset: Int

    public init(acknowledged: Int, total: Int, elapsed: Duration, rate: Double, part: UpdatePart? = nil,
                startOffset: Int = 0) {
        self.acknowledged = acknowledged
        self.total = total
        self.elapsed = elapsed
        self.rate = rate
        self.part = part
        self.startOffset = startOffset
    }

    /// Bytes this transfer sent that the device acknowledged: not what it held before.
    public var sent: Int { max(0, acknowledged - startOffset) }
}

extension TransferProgress {
    /// A protocol core's count, with what the engine knows besides.
    init(_ count: AcknowledgedProgress, elapsed: Duration, rate: Double, part: UpdatePart?) {
        self.init(acknowledged: Int(clamping: count.acknowledged), total: Int(clamping: count.total), elapsed: elapsed,
                  rate: rate, part: part, startOffset: Int(clamping: count.startOffset))
    }
}
