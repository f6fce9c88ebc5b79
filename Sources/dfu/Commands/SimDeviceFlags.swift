import ArgumentParsing
import DeviceSim

/// The virtual device's options as `dfu sim` flags: each is the `sim:` key of `--device sim:…`
/// with the same name (`--buf-size` for `buf_size`), and each goes through `SimOptions.set`, so both
/// spellings are checked by the same code. Values stay text here; `SimOptions` parses them.
struct SimDeviceFlags: ParsableArguments {
    @Option(name: "protocol", valueName: "smp|nordic", help: "Update protocol: smp (a Zephyr device, over UDP, BLE or a serial line) or nordic (an nRF5 SDK device: buttonless app and secure bootloader, over BLE or its bootloader on a serial line). (default: smp)")
    var simProtocol: String?

    @Option(valueName: "M.m.r[+b]", help: "Version the device runs at start. (default: 1.0.0)")
    var version: String?

    @Option(valueName: "PERCENT", help: "Battery level, 0-100, as the Battery Service reports it. BLE only: over UDP or a serial line it only changes the derived identity. (default: 80)")
    var battery: String?

    @Option(valueName: "PUB.pem", help: "The bootloader's public key: an image signed with another key is refused at boot. (default: the sample test key)")
    var key: String?

    @Option(valueName: "PRIV.pem", help: "The private key MCUboot decrypts encrypted images with (P-256, X25519 or RSA-2048, as imgtool sign -E encrypted for); without it an encrypted image is refused at boot.")
    var encKey: String?

    @Option(valueName: "ID", help: "Device identity, as an address would be. (default: derived from the other options)")
    var id: String?

    @Option(valueName: "BYTES", help: "ATT MTU, 23-517. BLE only: over UDP or a serial line it only changes the derived identity. (default: 498)")
    var mtu: String?

    @Option(valueName: "1M|2M", help: "Radio PHY. BLE only, as --mtu. (default: 2M)")
    var phy: String?

    @Option(valueName: "MS", help: "Connection interval, 7.5-4000 ms in steps of 1.25. BLE only, as --mtu. (default: 7.5)")
    var interval: String?

    @Option(valueName: "BYTES", help: "MCUmgr buffer size, 64-65535; a longer datagram is cut to it and answered rc 9. (default: 2475)")
    var bufSize: String?

    @Option(valueName: "N", help: "MCUmgr buffer count, 2-64 (window = count - 1). (default: 4)")
    var bufCount: String?

    @Option(valueName: "SIZE", help: "Slot size: bytes, 0x hex or K/M, whole 4 KiB pages, 64K-16M. (default: 0x60000)")
    var slotSize: String?

    @Option(valueName: "on|off", help: "Whether packets may span BLE writes. BLE only: UDP is one packet per datagram, a serial line one per frame. (default: on)")
    var reassembly: String?

    @Option(valueName: "move|scratch|overwrite", help: "How MCUboot installs an update: swap using move, swap using scratch, or overwrite-only (no revert; the only mode that decompresses compressed images). (default: move)")
    var swap: String?

    @Option(valueName: "1|2", help: "Updatable images: 2 makes an nRF5340-like device whose image 1 (the network core) has its own slots and version. (default: 1)")
    var images: String?

    @Option(valueName: "KIND", help: "What updates the device: mcuboot (swap), direct-xip, direct-xip-revert, ram-load or ram-load-revert (runs the newest image from either slot), or a kind dfu recognises and refuses: firmware-loader (bootloader info mode 7) or suit (answers SMP group 66). (default: mcuboot)")
    var bootloader: String?

    @Option(valueName: "MS", help: "Milliseconds from the reset reply to the reset, as Zephyr's CONFIG_MCUMGR_GRP_OS_RESET_MS, 0-60000. (default: 250)")
    var resetMs: String?

    @Option(valueName: "N", help: "Seed for @random fault points. (default: 0)")
    var seed: String?

    @Option(valueName: "FAULT", help: "A fault to inject: disconnect@40%, reboot@60%, stall@N, corrupt@N, duplicate@N, reorder@N (the reply swaps with the next), truncate@N[:BYTES] (the reply's last bytes missing), delay@N:1500ms, busy@N[:COUNT] (rc 10 to the next COUNT uploads) or battery@N:PERCENT (the battery falls to PERCENT); N a share of the image, a byte count or 'random'. Or a link drop at a request: drop@request:NAME[:N] (the answer lost), drop-before@… (the request lost) or drop-after@… (answered first), e.g. drop@request:reset, drop-before@request:state-write:2, drop-after@request:upload:last; reboot@, reboot-before@ and reboot-after@request:… reset the device there instead. '+' joins several in one value.")
    var fault: [String] = []

    @Option(valueName: "nrf52832|nrf52833|nrf52840", help: "nordic: the chip, with the nRF5 SDK 17.1 flash layout: the largest update the bootloader takes (316 KiB on nrf52832 and nrf52833, 824 KiB on nrf52840) and the SoftDevice --sd defaults to. (default: nrf52832)")
    var chip: String?

    @Option(valueName: "15|16|17", help: "nordic: the nRF5 SDK the bootloader follows; 15 keeps transfer progress across a link drop. (default: 17)")
    var sdk: String?

    @Option(valueName: "N", help: "nordic: the bootloader's hardware version (NRF_DFU_HW_VERSION). (default: 52)")
    var hw: String?

    @Option(valueName: "FWID", help: "nordic: the installed SoftDevice's FWID, decimal or 0x hex. (default: the chip's, 0x0101 for S132 7.2.0 on nrf52832, 0x0100 for S140 7.2.0 on nrf52833 and nrf52840)")
    var sd: String?

    @Option(valueName: "SECONDS|off", help: "nordic: seconds without DFU activity until the bootloader gives up, 1-3600, or off. (default: 120)")
    var inactivity: String?

    @Option(valueName: "N+M…", help: "nordic: Packet write numbers (from 1) the bootloader drops as if its buffers were full.")
    var prnDrop: String?

    @Option(valueName: "on|off|resets", help: "nordic: how the application answers buttonless set-name: on (SDK 14 and later), off (SDK 13: op code not supported) or resets (built without the async SVCI: it resets instead of answering). (default: on)")
    var setName: String?

    @Option(valueName: "POINT+…", help: "nordic: where the bootloader closes the link itself: create:N or execute:N (right after answering the Nth data object Create or Execute), packet:N (after the Nth Packet write); '+' joins several.")
    var drop: String?

    @Option(valueName: "N", help: "nordic: the installed bootloader_version; a bootloader update must be newer. (default: 1)")
    var blVersion: String?

    @Option(valueName: "plain|bonds|bonds-unpaired", help: "nordic: the buttonless service: plain (bootloader at the address + 1), bonds (for bonded centrals; the bootloader keeps the address) or bonds-unpaired (answers 'not bonded'). (default: plain)")
    var buttonless: String?

    @Option(valueName: "KIND@REQUEST:N+…", help: "nordic: Control Point answers the bootloader damages, each once: KIND corrupt (last byte inverted), truncate (last byte missing), drop (never sent) or duplicate (sent twice); REQUEST create, prn, checksum (a packet receipt counts), execute or select; N the Nth answer to it, e.g. corrupt@checksum:5; '+' joins several.")
    var cpFault: String?

    init() {}

    /// Each flag, the `sim:` key it sets and its values (`--fault` may have several), in
    /// `SimOptions.knownKeys` order.
    private var flags: [(flag: String, key: String, values: [String])] {
        [
            ("protocol", "protocol", simProtocol.list), ("version", "version", version.list),
            ("battery", "battery", battery.list), ("key", "key", key.list),
            ("enc-key", "enc_key", encKey.list), ("id", "id", id.list),
            ("mtu", "mtu", mtu.list), ("phy", "phy", phy.list), ("interval", "interval", interval.list),
            ("buf-size", "buf_size", bufSize.list), ("buf-count", "buf_count", bufCount.list),
            ("slot-size", "slot_size", slotSize.list), ("reassembly", "reassembly", reassembly.list),
            ("swap", "swap", swap.list), ("images", "images", images.list), ("bootloader", "bootloader", bootloader.list), ("reset-ms", "reset_ms", resetMs.list), ("seed", "seed", seed.list), ("fault", "fault", fault),
            ("chip", "chip", chip.list), ("sdk", "sdk", sdk.list), ("hw", "hw", hw.list), ("sd", "sd", sd.list),
            ("bl-version", "bl_version", blVersion.list), ("prn-drop", "prn_drop", prnDrop.list), ("drop", "drop", drop.list),
            ("inactivity", "inactivity", inactivity.list), ("buttonless", "buttonless", buttonless.list), ("set-name", "set_name", setName.list),
            ("cp-fault", "cp_fault", cpFault.list),
        ]
    }

    /// The device options, each value given to `SimOptions.set` as a `sim:` key is; every `--fault`
    /// adds its faults to those before it.
    func options() throws(UsageError) -> SimOptions {
        var options = SimOptions()
        for (_, key, values) in flags {
            for value in values {
                do throws(SimOptionsError) {
                    try options.set(key, to: value)
                } catch {
                    throw usageError(error)
                }
            }
        }
        return options
    }

    /// A `SimOptionsError` in the words of flags rather than `sim:` keys.
    func usageError(_ error: SimOptionsError) -> UsageError {
        func flag(_ key: String) -> String {
            "--" + (flags.first { $0.key == key }?.flag ?? key.replacingOccurrences(of: "_", with: "-"))
        }
        switch error {
        case .badValue(let key, let value, let expected):
            return UsageError("invalid value '\(value)' for \(flag(key)): expected \(expected)")
        case .keyUnusable(let path, let reason):
            return UsageError("--key '\(path)' cannot be used: \(reason)")
        case .encryptionKeyUnusable(let path, let reason):
            return UsageError("--enc-key '\(path)' cannot be used: \(reason)")
        case .inconsistent(let reason):
            return UsageError("the device options do not fit together: \(reason)")
        case .notASimDevice, .missingEquals, .unknownKey, .duplicateKey:
            return UsageError(error.description)
        }
    }
}

private extension Optional<String> {
    /// The value given, as a list of none or one.
    var list: [String] { map { [$0] } ?? [] }
}
