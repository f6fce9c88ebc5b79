import ArgumentParsing
import BlueZTransport
import DFUCore
import ExitCodes
import Transport

/// `dfu flash FILE --device SPEC`: update one device with a signed MCUboot image or an nRF Connect
/// SDK zip over SMP, or with a Nordic DFU package over Nordic Secure DFU, from the file check to the device reporting the new
/// version. The work is `UpdateEngine`'s (the file's content picks the protocol); this command turns
/// its options into a `FlashRequest` and runs it (`FlashRun`: the events rendered on the terminal
/// or as `--json`).
struct FlashCommand: DFUCommand {
    static let name = "flash"
    static let abstract = "Update a device with an MCUboot image, NCS zip or Nordic DFU package."
    static let discussion = """
        Checks the image (and with --key its signature), connects, reads the device's images, \
        battery and slot size, and refuses before the first byte when a precondition fails. Then it \
        uploads with the device's window (a lost link is reconnected and the upload resumes from the \
        device's offset) and activates as --mode says: test-confirm marks the image for test, resets, \
        reconnects, checks that slot 0 runs it and confirms it; confirm-only makes it permanent before \
        the reset; test-only leaves it unconfirmed (the device reverts on its next reset); \
        upload-only stops after the upload. An interrupted run resumes when run again. \
        --expect-version is held to the image's own version before anything is connected, and to \
        the version the device reports after the reboot (exit 8), before anything is confirmed.

        An nRF Connect SDK dfu_application.zip is verified whole, then each image goes to its image \
        index (an nRF5340's network core is image 1) and one reset installs them all; each image is \
        checked after the reboot. Images other than 0 are made permanent before the reset. A \
        direct-XIP build sends the variant for the slot the device does not run from.

        A Nordic DFU package (a .zip made by nrfutil pkg generate, told by its content) goes to an \
        nRF5 SDK secure bootloader: an application with buttonless DFU is asked to restart into it \
        (the bootloader then answers at the address + 1); the init packet and the firmware are sent \
        in objects checked by CRC (--prn N asks for a receipt every N packets), the bootloader \
        validates and starts the new application (activated: there is nothing to confirm, so \
        --mode test-only and upload-only do not apply), whose firmware revision must equal \
        --expect-version when given. A transfer cut off continues from the bootloader's offset. \
        A package with a system part (SoftDevice and/or bootloader) and an application sends the \
        system part first and the application after the device restarts; a system part the \
        bootloader declines as not newer is skipped with a warning.

        --dry-run stops once every check before the transfer has passed and says what the real \
        run would do (upload, only activate, only confirm, or nothing); no byte of the image is \
        sent, nothing is marked or reset, and no journal is kept.

        A device that requires an authenticated link (Zephyr's default when Bluetooth pairing is \
        enabled) is paired and bonded with --passkey N, or with the passkey typed at the terminal; \
        a bonded device is used as it is ('dfu pair', 'dfu unpair').

        Devices: a Bluetooth LE device by address or by name:NAME, through BlueZ on --adapter (by \
        default the first powered adapter; 'dfu scan' lists devices and their addresses); \
        sim[:KEY=VALUE,…] is the built-in virtual device, in real time (keys such as version=1.0.0, \
        battery=15, fault=disconnect@40%: README, "The virtual device"); udp:HOST:PORT is any SMP \
        server over UDP, such as 'dfu sim --serve' or a Zephyr board with the UDP transport.

        Examples:
          dfu flash app.signed.bin --device C2:11:40:55:7A:01 --key signing-pub.pem
          dfu flash app.signed.bin --device name:sensor-12 --adapter hci1 --json
          dfu flash app.signed.bin --device C2:11:40:55:7A:01 --passkey 123456
          dfu flash app.signed.bin --device sim --key signing-pub.pem
          dfu flash app.signed.bin --device 'sim:battery=15' --key signing-pub.pem
          dfu flash app.signed.bin --device udp:192.0.2.7:1337 --mode test-only --json
          dfu flash build/dfu_application.zip --device name:my-nrf5340 --key pub.pem
          dfu flash net.signed.bin --device name:my-nrf5340 --image 1
          dfu flash app_dfu.zip --device C2:11:40:55:7A:01 --expect-version 1.1.0
          dfu flash app.signed.bin --device C2:11:40:55:7A:01 --key pub.pem --dry-run

        Exit status:
          0    the device runs the new image (upload-only: the device holds it)
          1    internal error (a bug in dfu)
          2    usage error
          3    the image or the key cannot be used (format, hash, signature)
          4    a precondition failed (battery, version, slot, host power): nothing sent;
               or the battery fell below --min-battery during the upload: uploaded, not
               activated (charge the device, run the same command again)
          5    the device cannot be reached, or BlueZ or the adapter cannot be used
          6    transfer interrupted: run the same command again to resume
          7    the device rejected the update or broke the protocol
          8    the device runs another image or version after the reboot (rolled back)
          9    the device requires an authenticated link that could not be set up
          130  interrupted by SIGINT or SIGTERM
        """

    @Argument(valueName: "FILE", help: "The signed image ('imgtool sign'), an NCS build's dfu_application.zip, or a Nordic DFU package ('nrfutil pkg generate').")
    var image: String

    @Option(valueName: "PUB.pem", help: "Public key (PEM, or nrfutil's C array) the file must be signed with; without it the signature is not checked.")
    var key: String?

    @Flag(help: "Accept a Nordic package whose images are not signed although --key is given.")
    var allowUnsigned = false

    @Option(valueName: "VERSION", help: "The version the device must report after the reboot, or exit 8: an MCUboot image's M.m.r (with +BUILD to compare the build), or a Nordic application's firmware revision (Device Information). Not with --mode upload-only.")
    var expectVersion: String?

    @Option(valueName: "N", help: "Nordic DFU: a packet receipt every N packets (0: none; the link paces the writes).")
    var prn = 0

    @Option(valueName: "NAME", help: "Nordic DFU: the name the bootloader is to advertise (1-20 bytes), where the application can set it.")
    var bootloaderName: String?

    @Option(valueName: "MODE", help: "What follows the upload: test-confirm, confirm-only, test-only or upload-only.")
    var mode = ActivationMode.testConfirm

    @Option(name: "image", valueName: "N", help: "MCUboot image: the image index to update, 0-15 (an nRF5340's network core is 1); 'dfu info' lists them. With N > 0, test-confirm becomes confirm-only.")
    var imageIndex: Int?

    @Option(valueName: "PERCENT", help: "Refuse when the device's battery is below this level.")
    var minBattery = UpdateOptions().minimumBattery

    @Flag(help: "Allow an image whose version is not newer than the running one.")
    var allowDowngrade = false

    @Flag(help: "MCUboot image: have the device itself refuse an image that is not newer than the one it runs (upgrade: true in the first upload packet); dfu leaves its own version check to the device.")
    var requireNewer = false

    @Flag(help: "MCUboot over a serial port: reset the running application into MCUboot's serial recovery (os reset with boot_mode 1) and update through the bootloader, straight into the primary slot. Needs CONFIG_MCUMGR_GRP_OS_RESET_BOOT_MODE in the application and CONFIG_BOOT_SERIAL_BOOT_MODE in MCUboot.")
    var enterRecovery = false

    @Flag(help: "Allow the update while this computer runs on battery.")
    var allowHostBattery = false

    @Flag(help: "Run every check (file, key, connection and pairing, device state, battery, versions, slot) and stop before the transfer: nothing is sent. The exit status is the real run's up to there.")
    var dryRun = false

    var common = CommonOptions(json: .eventLines)

    @OptionGroup(title: "DEVICE OPTIONS")
    var target = DeviceOptions()

    @OptionGroup(title: "PAIRING OPTIONS")
    var security = PairingOptions()

    @OptionGroup(title: "TIMEOUT OPTIONS")
    var timeouts = FlashTimeouts()

    func validate() throws(UsageError) {
        if image.isEmpty { throw UsageError("IMAGE must not be empty") }
        if key?.isEmpty == true { throw UsageError("--key needs a path to a PEM public key") }
        guard (0 ... Int(UInt16.max)).contains(prn) else { throw UsageError("--prn must be from 0 to 65535") }
        if let bootloaderName, !(1 ... 20).contains(bootloaderName.utf8.count) {
            throw UsageError("--bootloader-name must be 1 to 20 bytes")
        }
        if expectVersion?.isEmpty == true { throw UsageError("--expect-version needs the version text the device reports") }
        if expectVersion != nil, mode == .uploadOnly {
            throw UsageError("--expect-version cannot be checked with --mode upload-only: the device does not start the "
                             + "new image, so it never reports its version. Leave one of them out.")
        }
        guard (0 ... 100).contains(minBattery) else { throw UsageError("--min-battery must be a percentage from 0 to 100") }
        if requireNewer && allowDowngrade {
            throw UsageError("--require-newer and --allow-downgrade contradict each other; give one")
        }
        if let imageIndex, !(0 ... 15).contains(imageIndex) { throw UsageError("--image must be an image index from 0 to 15") }
        try target.validate()
        try security.validate(for: try target.spec)
        try timeouts.validate()
    }

    func run(_ console: Console) async throws(DFUError) -> ExitStatus {
        await FlashRun(request: request, output: output, passkey: security.passkey,
                       journal: FlashJournal.standardStore()).run(console)
    }

    /// The update these options ask for. Valid after `validate()`.
    var request: FlashRequest {
        var request = FlashRequest(imagePath: image, device: target.recordName)
        request.adapter = target.bluetooth.adapter
        request.keyPath = key
        request.allowUnsigned = allowUnsigned
        request.expectVersion = expectVersion
        request.packetReceiptInterval = UInt16(clamping: prn)
        request.bootloaderName = bootloaderName
        request.mode = mode
        request.imageIndex = imageIndex
        request.minimumBattery = minBattery
        request.allowDowngrade = allowDowngrade
        request.requireNewer = requireNewer
        request.allowHostOnBattery = allowHostBattery
        request.pair = security.pair
        request.timeouts = timeouts.requested
        request.dryRun = dryRun
        request.enterRecovery = enterRecovery ? true : nil
        return request
    }

    /// How the run is shown.
    var output: FlashOutput {
        FlashOutput(json: common.json, verbose: common.verbose, fullAddresses: target.bluetooth.fullAddresses)
    }

    /// `app.signed.bin` for `build/zephyr/app.signed.bin`: what the progress lines call the image.
    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
