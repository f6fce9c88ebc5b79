import DFUCore
import Transport

/// The Nordic options (`protocol=nordic`): parsing of its own keys and the device they describe.
///
/// | key | value | default |
/// |---|---|---|
/// | `version` | app_version: `N` or `M.m.r` (= M·10000 + m·100 + r, nrfutil's version string) | 1 |
/// | `key` | the bootloader's public key (PEM or nrfutil's C array) | the built-in Nordic test key |
/// | `chip` | `nrf52832`, `nrf52833` or `nrf52840`: the flash layout of SDK 17.1 (`NordicChipLayout`), so how large an update may be, and the SoftDevice `sd` defaults to | nrf52832 |
/// | `sdk` | `15`, `16` or `17`: command object 256/512, progress kept across a link drop on 15 only | 17 |
/// | `hw` | `NRF_DFU_HW_VERSION` | 52 |
/// | `sd` | installed SoftDevice FWID, decimal or `0x` hex (16 bits) | the chip's: 0x0101 (S132 7.2.0) on nrf52832, 0x0100 (S140 7.2.0) on nrf52833 and nrf52840 |
/// | `bl_version` | installed bootloader_version (an update's must be greater) | 1 |
/// | `inactivity` | seconds (1…3600) until the bootloader leaves DFU mode, or `off` | 120; off with `timescale=0` (an unpaced clock jumps an idle wait to its deadline) |
/// | `buttonless` | `plain` (8EC90003, bootloader at address + 1), `bonds` (8EC90004, the central counts as bonded, bootloader at the same address) or `bonds-unpaired` (8EC90004, answers "not bonded") | plain |
/// | `prn_drop` | Packet write numbers (1-based) to drop as if buffers were full, joined with `+` | none |
/// | `set_name` | how the application answers buttonless set-name: `on` (SDK 14+), `off` (SDK 13: op code not supported) or `resets` (no async SVCI: it resets instead of answering) | on |
/// | `bl_address` | where the bootloader advertises: `plus1` (the SDK's address + 1), `random` (an address of its own, derived from the identity) or an address | plus1 |
/// | `bootloaders_nearby` | 0…4 other nRF52s in range, each waiting in DFU mode as `DfuTarg` | 0 |
/// | `drop` | where the bootloader closes the link itself: `create:N` / `execute:N` (right after answering the Nth data object Create / Execute), `packet:N` (after storing the Nth Packet write), joined with `+` | none |
/// | `cp_fault` | Control Point answers sent damaged: `corrupt@REQUEST:N` (last byte inverted) or `truncate@REQUEST:N` (last byte missing), the Nth answer (from 1, over the device's life) to REQUEST `create`, `prn`, `checksum`, `execute` or `select`, joined with `+` | none |
///
/// `battery`, `id`, `mtu`, `phy`, `interval`, `timescale` mean what they mean for SMP.
extension SimOptions {
    /// Parses one of `NordicSimOptions.keys`; false for any other key.
    mutating func setNordic(_ key: String, to value: String) throws(SimOptionsError) -> Bool {
        func bad(_ expected: String) -> SimOptionsError { .badValue(key: key, value: value, expected: expected) }
        switch key {
        case "chip":
            guard let chip = NordicChipLayout.named(value) else {
                throw bad("nrf52832, nrf52833 or nrf52840")
            }
            nordic.chip = chip
        case "sdk":
            guard let number = Int(value), let sdk = NordicSDKVersion(rawValue: number) else { throw bad("15, 16 or 17") }
            nordic.sdk = sdk
        case "hw":
            guard let number = Self.unsigned(value[...]), let hardware = UInt32(exactly: number) else {
                throw bad("a hardware version such as 52")
            }
            nordic.hardwareVersion = hardware
        case "sd":
            guard let number = Self.unsigned(value[...]), number <= 0xFFFF else {
                throw bad("a SoftDevice FWID from 0x0001 to 0xFFFF, e.g. 0x0101")
            }
            nordic.softDeviceFWID = UInt32(number)
        case "bl_version":
            guard let number = Self.unsigned(value[...]), let version = UInt32(exactly: number) else {
                throw bad("a bootloader version such as 1")
            }
            nordic.bootloaderVersion = version
        case "inactivity":
            if value.lowercased() == "off" {
                nordic.inactivityTimeout = nil
            } else {
                let digits = value.hasSuffix("s") ? value.dropLast() : value[...]
                guard let seconds = Int64(digits), (1 ... 3600).contains(seconds) else {
                    throw bad("seconds from 1 to 3600 (e.g. 120 or 120s), or off")
                }
                nordic.inactivityTimeout = .seconds(seconds)
            }
        case "buttonless":
            switch value.lowercased() {
            case "plain": nordic.buttonless = .withoutBonds
            case "bonds": nordic.buttonless = .withBonds(centralBonded: true)
            case "bonds-unpaired": nordic.buttonless = .withBonds(centralBonded: false)
            default: throw bad("plain, bonds or bonds-unpaired")
            }
        case "prn_drop":
            var writes: Set<Int> = []
            for part in value.split(separator: "+", omittingEmptySubsequences: false) {
                guard let n = Int(part), (1 ... 10_000_000).contains(n) else {
                    throw bad("Packet write numbers from 1, joined with '+' (e.g. 5+17)")
                }
                writes.insert(n)
            }
            nordic.droppedPacketWrites = writes
        case "set_name":
            guard let support = NordicSetNameSupport(rawValue: value.lowercased()) else { throw bad("on, off or resets") }
            nordic.setName = support
        case "bl_address":
            let lowered = value.lowercased()
            guard lowered == "plus1" || lowered == "random" || BootloaderAddressText.isAddress(value) else {
                throw bad("plus1, random or an address such as C0:11:22:33:44:55")
            }
            nordic.bootloaderAddress = lowered == "plus1" || lowered == "random" ? lowered : value.uppercased()
        case "bootloaders_nearby":
            guard let n = Int(value), (0 ... 4).contains(n) else { throw bad("0 to 4") }
            nordic.bootloadersNearby = n
        case "drop":
            var drops: Set<NordicLinkDrop> = []
            for part in value.split(separator: "+", omittingEmptySubsequences: false) {
                guard let drop = NordicLinkDrop(part) else { throw bad(NordicLinkDrop.expected) }
                drops.insert(drop)
            }
            nordic.linkDrops = drops
        case "cp_fault":
            var faults: [NordicNotificationFault] = []
            for part in value.split(separator: "+", omittingEmptySubsequences: false) {
                guard let fault = NordicNotificationFault(part) else { throw bad(NordicNotificationFault.expected) }
                faults.append(fault)
            }
            nordic.notificationFaults = faults
        default:
            return false
        }
        nordic.given.insert(key)
        return true
    }

    /// Refuses options that do not fit the protocol: Nordic keys or an integer version on SMP.
    func checkProtocolFit() throws(SimOptionsError) {
        guard simProtocol == .smp else {
            if let text = nordic.smpOnlyVersion {
                throw .badValue(key: "version", value: text, expected: "an app_version: N, or M.m.r with m and r below 100")
            }
            if imageCount != 1 { throw .inconsistent("images= applies to protocol=smp only") }
            if deviceKind != .mcuboot { throw .inconsistent("bootloader= applies to protocol=smp only") }
            return
        }
        if let key = NordicSimOptions.keys.first(where: nordic.given.contains) {
            throw .inconsistent("\(key)= applies to protocol=nordic only")
        }
        if let text = nordic.nordicOnlyVersion {
            throw .badValue(key: "version", value: text,
                            expected: "a version such as 1.0.0 or 1.2.3+45 (an app_version integer needs protocol=nordic)")
        }
    }

    /// The bootloader's inactivity timeout: off by default on an unpaced clock (`timescale=0`),
    /// where an idle wait jumps to its deadline, so the timer would end DFU mode at once.
    var effectiveInactivityTimeout: Duration? {
        timeScale == 0 && !nordic.given.contains("inactivity") ? nil : nordic.inactivityTimeout
    }

    /// The Nordic device these options describe. Reads the `key` file, if one was given.
    public func nordicDeviceConfiguration() throws(SimOptionsError) -> NordicDeviceConfiguration {
        guard simProtocol == .nordic else { throw .inconsistent("a Nordic device needs protocol=nordic") }
        try checkProtocolFit()
        let key = try bootloaderKey(defaultSource: DefaultNordicBootloaderKey.source) { () throws(ImageError) in
            try DefaultNordicBootloaderKey.key()
        }
        guard key.algorithm == .ecdsaP256 else {
            throw .keyUnusable(path: keyPath ?? DefaultNordicBootloaderKey.source,
                               reason: "it is a \(key.algorithm) key; a Nordic secure bootloader verifies ECDSA P-256 only")
        }
        var bootloader = NordicBootloaderConfiguration(
            key: key, sdk: nordic.sdk, chip: nordic.chip, hardwareVersion: nordic.hardwareVersion,
            softDeviceFWID: nordic.softDeviceFWID,
            appVersion: nordic.appVersion ?? NordicSimOptions.defaultAppVersion, bootloaderVersion: nordic.bootloaderVersion,
            droppedPacketWrites: nordic.droppedPacketWrites,
            inactivityTimeout: effectiveInactivityTimeout)
        bootloader.linkDrops = nordic.linkDrops
        var device = NordicDeviceConfiguration(identity: identity, bootloader: bootloader, batteryLevel: battery,
                                               buttonless: nordic.buttonless)
        device.setName = nordic.setName
        device.notificationFaults = nordic.notificationFaults
        switch nordic.bootloaderAddress {
        case nil, "plus1": device.bootloaderAddressing = .incremented
        case "random": device.bootloaderAddressing = .unrelated(to: identity)
        case let address?: device.bootloaderAddressing = .own(PeerIdentity(address))
        }
        return device
    }

    /// The bootloader's link: `mtu` capped at `NRF_SDH_BLE_GATT_MAX_MTU_SIZE` (247 in the SDK's
    /// bootloader config), whose 244-byte payload is a multiple of 4 (nordic-secure-dfu.md §1.1).
    public func nordicBootloaderLinkProfile() throws(SimOptionsError) -> LinkProfile {
        var capped = self
        capped.mtu = min(mtu, Self.nordicBootloaderMaxMTU)
        return try capped.linkProfile()
    }

    public static let nordicBootloaderMaxMTU = 247

    public func makeNordicDevice() throws(SimOptionsError) -> NordicVirtualDevice {
        NordicVirtualDevice(configuration: try nordicDeviceConfiguration())
    }

    /// The Nordic items of `deviceText` (only for protocol=nordic, so SMP identities stay as they were).
    var nordicText: [String] {
        let softDevice = nordic.softDeviceFWID ?? nordic.chip.softDeviceFWID
        var items = ["sdk=\(nordic.sdk.rawValue)", "hw=\(nordic.hardwareVersion)",
                     "sd=0x" + String(softDevice, radix: 16, uppercase: true)]
        // Only when changed, so the identities derived before the key existed stay the same.
        if nordic.chip != .nrf52832 { items.append("chip=\(nordic.chip.name)") }
        if nordic.bootloaderVersion != 1 { items.append("bl_version=\(nordic.bootloaderVersion)") }
        if nordic.inactivityTimeout != .seconds(120) {
            items.append("inactivity=" + (nordic.inactivityTimeout.map { "\($0.components.seconds)" } ?? "off"))
        }
        switch nordic.buttonless {
        case .withoutBonds: break
        case .withBonds(let bonded): items.append("buttonless=" + (bonded ? "bonds" : "bonds-unpaired"))
        }
        if !nordic.droppedPacketWrites.isEmpty {
            items.append("prn_drop=" + nordic.droppedPacketWrites.sorted().map(String.init).joined(separator: "+"))
        }
        if nordic.setName != .supported { items.append("set_name=\(nordic.setName.rawValue)") }
        if let address = nordic.bootloaderAddress { items.append("bl_address=\(address)") }
        if nordic.bootloadersNearby > 0 { items.append("bootloaders_nearby=\(nordic.bootloadersNearby)") }
        if !nordic.linkDrops.isEmpty {
            items.append("drop=" + nordic.linkDrops.map(\.description).sorted().joined(separator: "+"))
        }
        if !nordic.notificationFaults.isEmpty {
            items.append("cp_fault=" + nordic.notificationFaults.map(\.description).joined(separator: "+"))
        }
        return items
    }
}
