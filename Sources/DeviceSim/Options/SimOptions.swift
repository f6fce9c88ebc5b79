import DFUCore
import Transport

/// The virtual device's options, from `--device sim:key=value,…` or from `dfu sim` flags (the CLI
/// passes each flag as `set(name, to: value)`, e.g. `--buf-size 1024` → `set("buf-size", to: "1024")`).
///
/// | key | value | default |
/// |---|---|---|
/// | `protocol` | `smp`, or `nordic` (its keys in `SimOptions+Nordic.swift`) | smp |
/// | `version` | running version `M.m.r` or `M.m.r+build` | 1.0.0 |
/// | `battery` | percent 0…100 (`%` optional) | 80 |
/// | `key` | bootloader public key PEM path | the built-in test key |
/// | `enc_key` | private key PEM path MCUboot decrypts encrypted images with (P-256, X25519 or RSA-2048) | none: encrypted images are refused at boot |
/// | `id` | identity, as an address would be | derived from the other options |
/// | `mtu` | ATT MTU 23…517 | 498 |
/// | `phy` | `1M` or `2M` | 2M |
/// | `interval` | connection interval in ms, 7.5…4000 in 1.25 steps | 7.5 |
/// | `buf_size` | MCUmgr buffer size 64…65535 | 2475 |
/// | `buf_count` | MCUmgr buffer count 2…64 | 4 |
/// | `slot_size` | slot bytes: decimal, `0x` hex or `K`/`M` suffix; whole 4 KiB pages, 64 KiB…16 MiB | 0x60000 |
/// | `reassembly` | `on`/`off`: packets may span writes | on |
/// | `bootloader` | `mcuboot`, `direct-xip` or `direct-xip-revert` (MCUboot runs the newest image from either slot; mode 4 or 5), `ram-load` or `ram-load-revert` (the same, but the image is copied into RAM and must be signed `--load-addr`; mode 6), or a kind dfu recognises and refuses: `firmware-loader` (bootloader info mode 7), `suit` (answers SMP group 66) | mcuboot |
/// | `swap` | how MCUboot installs an image: `move` (swap using move), `scratch` (swap using scratch), `overwrite` (overwrite-only: no revert; the only mode that decompresses compressed images) | move |
/// | `images` | updatable images, 1 or 2 (2: nRF5340-like, image 1 the network core, own slot pair) | 1 |
/// | `reset_ms` | ms from the reset reply to the reset (Zephyr's `CONFIG_MCUMGR_GRP_OS_RESET_MS`), 0…60000 | 250 |
/// | `seed` | seed for `@random` fault points | 0 |
/// | `fault` | see below | none |
/// | `timescale` | real seconds per model second: 1 real time, 0.05 twenty times faster, 0 unpaced (as fast as the machine goes) | 1 |
/// | `drop_report` | ms the central's host takes to report a link the device ended (0…10000); meanwhile its ATT requests fail with 0x0E, as bluetoothd's do for tens of ms | 0 |
///
/// Faults: `fault=disconnect@40%`, `reboot@60%`, `stall@N`, `corrupt@N`, `duplicate@N`, `reorder@N`,
/// `truncate@N[:BYTES]`, `delay@N:1500ms`, `busy@N:3`, `battery@N:PERCENT`, where N is `N%` of the
/// image, a byte count, or `random` (see `FaultSpec`).
/// Link drops at a request: `drop@request:NAME[:N]` (the device carries out its Nth NAME request,
/// then closes the link instead of answering), `drop-before@request:NAME[:N]` (it closes the link
/// as the request arrives: the request is lost), `drop-after@request:NAME[:N]` (it answers, then
/// closes the link); NAME one of `params`, `echo`, `os-info`, `bootloader-info`, `suit`,
/// `slot-info`, `state-read`, `state-write`, `upload`, `erase`, `reset`; N from 1, counted over the
/// device's life (reconnections and resets included; default 1); `request:upload:last` is the
/// upload request carrying the image's last byte. With `drop_report` and a paced `timescale` they
/// reproduce bluetoothd's late report of a dropped link. `reboot@`, `reboot-before@` and
/// `reboot-after@request:NAME[:N]` reset the device at those three moments instead.
/// Commas separate options, so a comma cannot also separate faults: join several with `+`
/// (`fault=disconnect@40%+reboot@60%`) or repeat the key (`fault=disconnect@40%,fault=reboot@60%`);
/// both add up. `-` and `_` are interchangeable in key names. Every other key may appear once.
public struct SimOptions: Sendable, Hashable {
    public enum SimProtocol: String, Sendable, Hashable {
        case smp
        /// nRF5 SDK application with buttonless DFU and secure bootloader (`SimOptions+Nordic.swift`).
        case nordic
    }

    public var simProtocol: SimProtocol = .smp
    public var version = ImageVersion(major: 1, minor: 0, revision: 0)
    public var battery: UInt8 = 80
    /// nil: `DefaultBootloaderKey`.
    public var keyPath: String?
    /// nil: MCUboot without encryption support.
    public var encryptionKeyPath: String?
    /// nil: derived, see `identity`.
    public var id: String?
    public var mtu = 498
    public var phy: LinkPHY = .le2M
    public var interval: Duration = .microseconds(7_500)
    public var bufferSize = 2475
    public var bufferCount = 4
    public var slotSize = 0x60000
    public var reassembly = true
    /// Updatable images: 1, or 2 for an nRF5340-like device (image 1 the network core).
    public var imageCount = 1
    /// How MCUboot installs an update (`swap`, or `bootloader=direct-xip…`).
    public var swapMode: MCUbootSwapMode = .withoutScratch
    /// What updates the device (`SMPServerConfiguration.kind`).
    public var deviceKind: SMPServerConfiguration.DeviceKind = .mcuboot
    /// How long, in ms, the device keeps running after answering a reset request.
    public var resetMilliseconds = 250
    public var seed: UInt64 = 0
    /// How fast the link and device model runs (`LinkClock.timeScale`). Not part of the device:
    /// it changes how long things take, not what happens, so it stays out of the identity.
    public var timeScale: Double = 1
    /// `LinkProfile.dropReportDelay`: the central host's, not the device's, so it stays out of the
    /// identity as `timeScale` does.
    public var dropReportDelay: Duration = .zero
    var faultSpecs: [FaultSpec] = []
    /// Read by `protocol=nordic` only.
    public var nordic = NordicSimOptions()

    public init() {}

    public static let knownKeys = ["protocol", "version", "battery", "key", "enc_key", "id", "mtu", "phy", "interval",
                                   "buf_size", "buf_count", "slot_size", "reassembly", "swap", "images", "bootloader", "reset_ms", "seed", "fault",
                                   "timescale", "drop_report"] + NordicSimOptions.keys

    /// Parses `sim` or `sim:key=value,…`.
    public static func parse(_ text: String) throws(SimOptionsError) -> SimOptions {
        var options = SimOptions()
        guard text == "sim" || text.hasPrefix("sim:") else { throw .notASimDevice(text) }
        guard text.count > 4 else { return options }
        var seen: Set<String> = []
        for item in text.dropFirst(4).split(separator: ",", omittingEmptySubsequences: false) {
            guard let equals = item.firstIndex(of: "=") else { throw .missingEquals(item: String(item)) }
            let key = normalized(item[..<equals])
            if key != "fault" && !seen.insert(key).inserted { throw .duplicateKey(key) }
            try options.set(key, to: String(item[item.index(after: equals)...]))
        }
        try options.checkProtocolFit()
        return options
    }

    /// Sets one option; `fault` adds to the faults given before.
    public mutating func set(_ rawKey: String, to value: String) throws(SimOptionsError) {
        let key = Self.normalized(rawKey[...])
        func bad(_ expected: String) -> SimOptionsError { .badValue(key: key, value: value, expected: expected) }
        switch key {
        case "protocol":
            guard let parsed = SimProtocol(rawValue: value.lowercased()) else {
                throw bad("smp or nordic")
            }
            simProtocol = parsed
        case "version":
            // M.m.r serves both protocols; a plain integer is a Nordic app_version only.
            let parsed = Self.version(value)
            let appVersion = NordicAppVersion.parse(value)
            guard parsed != nil || appVersion != nil else {
                throw bad("a version such as 1.0.0 or 1.2.3+45 (Nordic: also an app_version integer such as 3)")
            }
            if let parsed { version = parsed }
            nordic.appVersion = appVersion
            nordic.nordicOnlyVersion = parsed == nil ? value : nil
            nordic.smpOnlyVersion = appVersion == nil ? value : nil
        case "battery":
            let digits = value.hasSuffix("%") ? value.dropLast() : value[...]
            guard let level = UInt8(digits), level <= 100 else { throw bad("a percentage from 0 to 100") }
            battery = level
        case "key":
            guard !value.isEmpty else { throw bad("the path of a PEM public key") }
            keyPath = value
        case "enc_key":
            guard !value.isEmpty else { throw bad("the path of a PEM private key") }
            encryptionKeyPath = value
        case "id":
            guard !value.isEmpty, !value.contains(where: \.isWhitespace) else {
                throw bad("an identity without spaces, such as C0:11:22:33:44:55")
            }
            id = value
        case "mtu":
            guard let n = Int(value), (23 ... 517).contains(n) else { throw bad("an ATT MTU from 23 to 517") }
            mtu = n
        case "phy":
            switch value.uppercased() {
            case "1M", "LE1M": phy = .le1M
            case "2M", "LE2M": phy = .le2M
            default: throw bad("1M or 2M")
            }
        case "interval":
            guard let parsed = Self.interval(value) else {
                throw bad("a connection interval in ms from 7.5 to 4000 in steps of 1.25")
            }
            interval = parsed
        case "buf_size":
            guard let n = Int(value), (64 ... 65_535).contains(n) else { throw bad("a buffer size from 64 to 65535 bytes") }
            bufferSize = n
        case "buf_count":
            guard let n = Int(value), (2 ... 64).contains(n) else { throw bad("a buffer count from 2 to 64") }
            bufferCount = n
        case "slot_size":
            guard let n = Self.size(value[...]), n % FlashSlot.defaultPageSize == 0,
                  (0x10000 ... 0x100_0000).contains(n) else {
                throw bad("a multiple of 4096 from 64K to 16M (e.g. 0x60000 or 384K)")
            }
            slotSize = n
        case "reassembly":
            switch value.lowercased() {
            case "on", "yes", "true", "1": reassembly = true
            case "off", "no", "false", "0": reassembly = false
            default: throw bad("on or off")
            }
        case "swap":
            guard let mode = MCUbootSwapMode(optionValue: value) else { throw bad("move, scratch or overwrite") }
            swapMode = mode
        case "images":
            guard let n = Int(value), (1 ... 2).contains(n) else { throw bad("1 or 2 updatable images") }
            imageCount = n
        case "bootloader":
            switch value.lowercased() {
            case "direct-xip": (deviceKind, swapMode) = (.mcuboot, .directXIP)
            case "direct-xip-revert": (deviceKind, swapMode) = (.mcuboot, .directXIPWithRevert)
            case "ram-load": (deviceKind, swapMode) = (.mcuboot, .ramLoad)
            case "ram-load-revert": (deviceKind, swapMode) = (.mcuboot, .ramLoadWithRevert)
            default:
                guard let kind = SMPServerConfiguration.DeviceKind(rawValue: value.lowercased()) else {
                    throw bad("mcuboot, direct-xip, direct-xip-revert, ram-load, ram-load-revert, firmware-loader or suit")
                }
                deviceKind = kind
            }
        case "reset_ms":
            guard let ms = Int(value), (0 ... 60_000).contains(ms) else { throw bad("milliseconds from 0 to 60000") }
            resetMilliseconds = ms
        case "seed":
            guard let n = Self.unsigned(value[...]) else { throw bad("an unsigned integer") }
            seed = n
        case "timescale", "time_scale":
            guard let scale = Double(value), scale.isFinite, (0 ... 100).contains(scale) else {
                throw bad("real seconds per model second from 0 (unpaced) to 100, e.g. 1 (real time) or 0.05")
            }
            timeScale = scale
        case "drop_report":
            let digits = value.hasSuffix("ms") ? value.dropLast(2) : value[...]
            guard let ms = Int64(digits), (0 ... 10_000).contains(ms) else { throw bad("milliseconds from 0 to 10000, e.g. 40ms") }
            dropReportDelay = .milliseconds(ms)
        case "fault":
            var specs: [FaultSpec] = []
            for part in value.split(separator: "+", omittingEmptySubsequences: false) {
                guard let spec = FaultSpec(part) else { throw bad(FaultSpec.expected) }
                specs.append(spec)
            }
            faultSpecs += specs
        default:
            guard try setNordic(key, to: value) else { throw .unknownKey(rawKey) }
        }
    }

    /// The faults, `@random` points drawn from `seed`.
    public var faults: [SimFault] {
        faultSpecs.enumerated().map { $0.element.resolved(seed: seed, index: $0.offset) }
    }

    /// Every option but `id`, in `sim:` syntax with canonical spellings: what a log can print to
    /// reproduce the device. `drop_report` and `timescale` are last and only when not at their defaults.
    public var canonicalText: String {
        var text = deviceText
        if dropReportDelay != .zero {
            text += ",drop_report=\(dropReportDelay.wholeMilliseconds)ms"
        }
        return timeScale == 1 ? text : text + ",timescale=\(timeScale)"
    }

    /// `canonicalText` without `timescale`: what the default identity is derived from.
    var deviceText: String {
        var items = [
            "protocol=\(simProtocol.rawValue)", "version=\(versionText)", "battery=\(battery)",
        ]
        if let keyPath { items.append("key=\(keyPath)") }
        if let encryptionKeyPath { items.append("enc_key=\(encryptionKeyPath)") }
        let ms = Double(interval.components.attoseconds) / 1e15 + Double(interval.components.seconds) * 1000
        items += [
            "mtu=\(mtu)", "phy=\(phy.rawValue)", "interval=\(ms)", "buf_size=\(bufferSize)",
            "buf_count=\(bufferCount)", "slot_size=\(slotSize)", "reassembly=\(reassembly ? "on" : "off")",
            "seed=\(seed)",
        ]
        // Only when changed, so the identities derived before the key existed stay the same.
        if swapMode.hasEqualSlots {
            items.append("bootloader=\(swapMode.optionValue)")
        } else if swapMode != .withoutScratch {
            items.append("swap=\(swapMode.optionValue)")
        }
        if imageCount != 1 { items.append("images=\(imageCount)") }
        if deviceKind != .mcuboot { items.append("bootloader=\(deviceKind.rawValue)") }
        if resetMilliseconds != 250 { items.append("reset_ms=\(resetMilliseconds)") }
        if !faultSpecs.isEmpty { items.append("fault=" + faultSpecs.map(\.text).joined(separator: "+")) }
        if simProtocol == .nordic {
            items += nordicText
        }
        return "sim:" + items.joined(separator: ",")
    }

    /// An SMP version as M.m.r; a Nordic one as its app_version integer.
    private var versionText: String {
        simProtocol == .nordic ? "\(nordic.appVersion ?? NordicSimOptions.defaultAppVersion)" : Self.text(version)
    }

    static func normalized(_ key: Substring) -> String {
        key.lowercased().replacingOccurrences(of: "-", with: "_")
    }
}
