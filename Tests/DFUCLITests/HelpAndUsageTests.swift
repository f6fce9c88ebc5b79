import Foundation
import Testing

/// The command line itself: help, version, and usage errors (exit 2, one line plus where to look).
@Suite struct HelpAndUsageTests {
    @Test func rootHelpListsCommandsAndExitsZero() throws {
        let run = try DFURun.run(["--help"])
        #expect(run.exitCode == 0)
        #expect(run.stdout.contains("USAGE: dfu <command> [options]"))
        for command in ["verify", "scan", "info", "flash", "sim"] {
            #expect(run.stdout.contains("\n  \(command) "), "root help lacks \(command)")
        }
        #expect(run.stdout.contains("--version"))
        #expect(run.stderr.isEmpty)
    }

    @Test func helpCommandAndHelpFlagPrintTheSameText() throws {
        let viaCommand = try DFURun.run(["help", "verify"])
        let viaFlag = try DFURun.run(["verify", "--help"])
        let viaShortFlag = try DFURun.run(["verify", "some.bin", "-h"])
        #expect(viaCommand.exitCode == 0 && viaFlag.exitCode == 0 && viaShortFlag.exitCode == 0)
        #expect(viaCommand.stdout == viaFlag.stdout)
        #expect(viaShortFlag.stdout == viaFlag.stdout)
        #expect(try DFURun.run(["help"]).stdout == DFURun.run(["--help"]).stdout)
    }

    // Snapshots: help is generated from the declarations, so a change here is a change of the CLI.

    @Test func rootHelpMatchesSnapshot() throws {
        let run = try DFURun.run(["--help"])
        #expect(run.exitCode == 0)
        // The version changes on its own; versionPrintsNameAndSemanticVersion checks it.
        #expect(run.stdout.replacing(/dfu \d+\.\d+\.\d+\./, with: "dfu X.Y.Z.", maxReplacements: 1) == """
            OVERVIEW: Update BLE firmware: MCUboot over SMP, nRF5 Secure DFU. dfu X.Y.Z.

            USAGE: dfu <command> [options]

            COMMANDS:
              verify       Check an MCUboot image, NCS zip or Nordic DFU package offline.
              scan         List Bluetooth LE devices or serial ports with SMP or Nordic DFU.
              info         Show what a device reports: image slots or DFU state, battery,
                           MTU.
              flash        Update a device with an MCUboot image, NCS zip or Nordic DFU
                           package.
              image        List, test, confirm or erase a device's image slots (SMP).
              reset        Reset a device; with --wait, until it is back.
              echo         Send text to a device and print what it echoes (is MCUmgr up?).
              batch        Update many devices, several at once, from a plan (CSV or JSON
                           lines).
              resume       Finish updates that were cut off (from the journal dfu keeps).
              pair         Pair and bond with a Bluetooth device (once), with its passkey.
              unpair       Forget a Bluetooth device's bond (bluetoothd removes its keys).
              sim          Serve the virtual device over UDP or BLE for others to update.
              help         Show help for dfu or for one command.

            OPTIONS:
              -h, --help   Show this help.
              --version    Print the version of dfu.

            Devices: Bluetooth LE devices through BlueZ, by address or name:NAME ('dfu scan'
            lists them); the built-in virtual device (--device sim); SMP servers over UDP
            (--device udp:HOST:PORT).

            Examples:
              dfu scan
              dfu info --device C2:11:40:55:7A:01
              dfu flash app.signed.bin --device C2:11:40:55:7A:01 --key signing-pub.pem
              dfu pair --device C2:11:40:55:7A:01 --passkey 123456
              dfu verify app.signed.bin --key signing-pub.pem
              dfu flash app.signed.bin --device sim --key signing-pub.pem
              dfu sim --serve udp:127.0.0.1:1337

            See 'dfu help <command>' or 'dfu <command> --help' for a command's options.

            """)
    }

    @Test func verifyHelpMatchesSnapshot() throws {
        let run = try DFURun.run(["verify", "--help"])
        #expect(run.exitCode == 0)
        #expect(run.stdout == """
            OVERVIEW: Check an MCUboot image, NCS zip or Nordic DFU package offline.

            USAGE: dfu verify <IMAGE> [--key <PUB.pem>] [--allow-unsigned] [--json]
                              [--verbose]

            ARGUMENTS:
              <IMAGE>                 The image ('imgtool sign'), nRF Connect SDK zip or
                                      Nordic DFU package (.zip) to check.

            OPTIONS:
              --key <PUB.pem>         Public key (PEM; for a package also nrfutil's C array)
                                      it must be signed with.
              --allow-unsigned        With --key, accept a Nordic DFU package that is not
                                      signed.
              --json                  Print the result as one JSON object on stdout instead
                                      of text.
              -v, --verbose           Log each step on stderr (never key material or image
                                      bytes).
              -h, --help              Show this help.

            Checks that the image is well-formed (header, TLV areas, every size inside the
            file), that its SHA-256 matches its SHA256 TLV, and with --key that its
            signature (ECDSA P-256, Ed25519, RSA-2048 or RSA-3072 PSS) verifies with that
            key and its KEYHASH TLV names it. Without --key the signature is not checked,
            and dfu says so.

            A Nordic Secure DFU package (the .zip 'nrfutil pkg generate' writes, recognised
            by its content) is checked image by image: manifest and init packet well-formed,
            the firmware's SHA-256 and size as the init packet states them, and with --key
            the ECDSA P-256 signature of the init packet. The key is PEM or the C array
            'nrfutil keys display --format code' prints. With --key an unsigned package is
            refused unless --allow-unsigned is given; without --key no signature is checked.

            An nRF Connect SDK dfu_application.zip (a zip whose manifest.json lists MCUboot
            images, as 'west build' writes it) is checked image by image like a single
            image: each one the manifest names must be in the zip with the size it states,
            and each is listed with its image index, its core or direct-XIP slot as the
            manifest says, version, size, hash and with --key its signature. The zip passes
            only if every image does.

            Examples:
              dfu verify app.signed.bin --key signing-pub.pem
              dfu verify app.signed.bin --key signing-pub.pem --json
              dfu verify app_dfu_package.zip --key public_key.pem
              dfu verify build/dfu_application.zip --key signing-pub.pem

            Exit status:
              0    everything that was checked passed
              1    internal error (a bug in dfu)
              2    usage error
              3    the image is invalid, the key cannot be used, or a file cannot be read
              130  interrupted by SIGINT or SIGTERM

            """)
    }

    @Test func flashHelpMatchesSnapshot() throws {
        let run = try DFURun.run(["flash", "--help"])
        #expect(run.exitCode == 0)
        #expect(run.stdout == """
            OVERVIEW: Update a device with an MCUboot image, NCS zip or Nordic DFU package.

            USAGE: dfu flash <FILE> --device <DEVICE> [options]

            ARGUMENTS:
              <FILE>                  The signed image ('imgtool sign'), an NCS build's
                                      dfu_application.zip, or a Nordic DFU package ('nrfutil
                                      pkg generate').

            OPTIONS:
              --key <PUB.pem>         Public key (PEM, or nrfutil's C array) the file must
                                      be signed with; without it the signature is not
                                      checked.
              --allow-unsigned        Accept a Nordic package whose images are not signed
                                      although --key is given.
              --expect-version <VERSION>
                                      The version the device must report after the reboot,
                                      or exit 8: an MCUboot image's M.m.r (with +BUILD to
                                      compare the build), or a Nordic application's firmware
                                      revision (Device Information). Not with --mode
                                      upload-only.
              --prn <N>               Nordic DFU: a packet receipt every N packets (0: none;
                                      the link paces the writes). (default: 0)
              --bootloader-name <NAME>
                                      Nordic DFU: the name the bootloader is to advertise
                                      (1-20 bytes), where the application can set it.
              --mode <MODE>           What follows the upload: test-confirm, confirm-only,
                                      test-only or upload-only. (default: test-confirm)
              --image <N>             MCUboot image: the image index to update, 0-15 (an
                                      nRF5340's network core is 1); 'dfu info' lists them.
                                      With N > 0, test-confirm becomes confirm-only.
              --min-battery <PERCENT>
                                      Refuse when the device's battery is below this level.
                                      (default: 30)
              --allow-downgrade       Allow an image whose version is not newer than the
                                      running one.
              --require-newer         MCUboot image: have the device itself refuse an image
                                      that is not newer than the one it runs (upgrade: true
                                      in the first upload packet); dfu leaves its own
                                      version check to the device.
              --enter-recovery        MCUboot over a serial port: reset the running
                                      application into MCUboot's serial recovery (os reset
                                      with boot_mode 1) and update through the bootloader,
                                      straight into the primary slot. Needs
                                      CONFIG_MCUMGR_GRP_OS_RESET_BOOT_MODE in the
                                      application and CONFIG_BOOT_SERIAL_BOOT_MODE in
                                      MCUboot.
              --allow-host-battery    Allow the update while this computer runs on battery.
              --dry-run               Run every check (file, key, connection and pairing,
                                      device state, battery, versions, slot) and stop before
                                      the transfer: nothing is sent. The exit status is the
                                      real run's up to there.
              --json                  Print one JSON object per line on stdout (NDJSON):
                                      each event, then a result line; nothing on stderr.
                                      Fields: docs/json-events.md.
              -v, --verbose           Log each step on stderr (never key material or image
                                      bytes).
              -h, --help              Show this help.

            DEVICE OPTIONS:
              --device <DEVICE>       The device: a Bluetooth address (AA:BB:CC:DD:EE:FF, as
                                      'dfu scan' lists it) or name:NAME (its advertised
                                      name), through BlueZ; sim[:KEY=VALUE,…], the built-in
                                      virtual device; udp:HOST:PORT, an SMP server over UDP;
                                      or serial:PATH[,baud=N,raw,recovery,rtscts], a device
                                      on a serial port.
              --adapter <hciN>        BlueZ adapter for Bluetooth devices, e.g. hci1
                                      ('bluetoothctl list'); by default the first powered
                                      one.
              --full-addresses        Show Bluetooth addresses in full instead of shortened
                                      (…:EE:FF).

            PAIRING OPTIONS:
              --passkey <N>           The device's six-digit passkey (000000-999999), for
                                      devices that require an authenticated link (Zephyr's
                                      default for SMP with Bluetooth pairing); dfu pairs
                                      with it when the device asks. Without it, on a
                                      terminal dfu asks for the passkey when needed.
              --pair                  Pair and bond first, even if the device does not ask
                                      for it (needs --passkey, or a terminal).

            TIMEOUT OPTIONS:
              --connect-timeout <SECONDS>
                                      Seconds to connect, and to reconnect after a lost
                                      link. (default: 20.0)
              --reboot-timeout <SECONDS>
                                      Seconds from the reset until the device answers again
                                      (MCUboot swaps meanwhile). (default: 60.0)
              --chunk-timeout <SECONDS>
                                      Seconds to wait for the device to acknowledge one
                                      upload chunk. (default: 5.0)
              --first-chunk-timeout <SECONDS>
                                      Seconds to wait for the first chunk's answer (the
                                      device erases first). (default: 40 per started MiB of
                                      the image)

            Checks the image (and with --key its signature), connects, reads the device's
            images, battery and slot size, and refuses before the first byte when a
            precondition fails. Then it uploads with the device's window (a lost link is
            reconnected and the upload resumes from the device's offset) and activates as
            --mode says: test-confirm marks the image for test, resets, reconnects, checks
            that slot 0 runs it and confirms it; confirm-only makes it permanent before the
            reset; test-only leaves it unconfirmed (the device reverts on its next reset);
            upload-only stops after the upload. An interrupted run resumes when run again.
            --expect-version is held to the image's own version before anything is
            connected, and to the version the device reports after the reboot (exit 8),
            before anything is confirmed.

            An nRF Connect SDK dfu_application.zip is verified whole, then each image goes
            to its image index (an nRF5340's network core is image 1) and one reset installs
            them all; each image is checked after the reboot. Images other than 0 are made
            permanent before the reset. A direct-XIP build sends the variant for the slot
            the device does not run from.

            A Nordic DFU package (a .zip made by nrfutil pkg generate, told by its content)
            goes to an nRF5 SDK secure bootloader: an application with buttonless DFU is
            asked to restart into it (the bootloader then answers at the address + 1); the
            init packet and the firmware are sent in objects checked by CRC (--prn N asks
            for a receipt every N packets), the bootloader validates and starts the new
            application (activated: there is nothing to confirm, so --mode test-only and
            upload-only do not apply), whose firmware revision must equal --expect-version
            when given. A transfer cut off continues from the bootloader's offset. A package
            with a system part (SoftDevice and/or bootloader) and an application sends the
            system part first and the application after the device restarts; a system part
            the bootloader declines as not newer is skipped with a warning.

            --dry-run stops once every check before the transfer has passed and says what
            the real run would do (upload, only activate, only confirm, or nothing); no byte
            of the image is sent, nothing is marked or reset, and no journal is kept.

            A device that requires an authenticated link (Zephyr's default when Bluetooth
            pairing is enabled) is paired and bonded with --passkey N, or with the passkey
            typed at the terminal; a bonded device is used as it is ('dfu pair', 'dfu
            unpair').

            Devices: a Bluetooth LE device by address or by name:NAME, through BlueZ on
            --adapter (by default the first powered adapter; 'dfu scan' lists devices and
            their addresses); sim[:KEY=VALUE,…] is the built-in virtual device, in real time
            (keys such as version=1.0.0, battery=15, fault=disconnect@40%: README, "The
            virtual device"); udp:HOST:PORT is any SMP server over UDP, such as 'dfu sim
            --serve' or a Zephyr board with the UDP transport.

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

            """)
    }

    @Test func batchHelpMatchesSnapshot() throws {
        let run = try DFURun.run(["batch", "--help"])
        #expect(run.exitCode == 0)
        #expect(run.stdout == """
            OVERVIEW: Update many devices, several at once, from a plan (CSV or JSON lines).

            USAGE: dfu batch <PLAN> [options]

            ARGUMENTS:
              <PLAN>                  The plan: a CSV file with a header row, or JSON lines
                                      (one object per device). With --discover: the file to
                                      flash onto every device found.

            OPTIONS:
              --discover <FILTER>     Instead of a plan, scan and update every device that
                                      matches, once: name:GLOB (name:sensor-*),
                                      service:UUID, or any (SMP or Nordic DFU); needs
                                      --count or --until.
              --count <N>             With --discover: stop once N devices are updated (or
                                      failed); a device that already runs the image does not
                                      count.
              --until <SECONDS>       With --discover: stop looking for devices after
                                      SECONDS (devices in flight finish).
              --rssi-min <DBM>        With --discover: leave out devices heard weaker than
                                      this, e.g. -70.
              --key <PUB.pem>         Public key every row's file must be signed with,
                                      unless its key column names another.
              --mode <MODE>           What follows each upload, unless a row's mode says
                                      otherwise: test-confirm, confirm-only, test-only or
                                      upload-only. (default: test-confirm)
              --min-battery <PERCENT>
                                      Refuse a device whose battery is below this level,
                                      unless its row says otherwise. (default: 30)
              --allow-downgrade       Allow images whose version is not newer than the
                                      running one.
              --allow-unsigned        Accept Nordic packages whose images are not signed
                                      although a key is given.
              --allow-host-battery    Allow the updates while this computer runs on battery.
              --pair                  Pair and bond every Bluetooth device first, even if it
                                      does not ask (needs its passkey column).
              --dry-run               Check every device as 'dfu flash --dry-run' does
                                      (file, key, connection, device state, preconditions)
                                      and send nothing.
              --parallel <N>          Devices updated at once, 1-64. (default: 1)
              --per-adapter <N>       Bluetooth devices at once on one adapter, 1-16.
                                      (default: 4)
              --adapter <hciN|all>    A BlueZ adapter to spread Bluetooth devices over;
                                      repeat for several, or 'all' for every powered one.
                                      (default: the first powered one) (can be repeated)
              --report <FILE>         Also write the JSON report lines to FILE (replaced
                                      whole as each device ends; never the plan).
              --force                 Replace a --report FILE that exists and is not a dfu
                                      batch report.
              --full-addresses        Show Bluetooth addresses in full on the terminal
                                      instead of shortened (…:EE:FF); --json and --report
                                      always carry them in full.
              --json                  Print one JSON object per line on stdout (NDJSON):
                                      each device as its update ends, then a summary result
                                      line; nothing on stderr. Fields: docs/json-events.md.
              -v, --verbose           Log each step on stderr (never key material or image
                                      bytes).
              -h, --help              Show this help.

            TIMEOUT OPTIONS:
              --connect-timeout <SECONDS>
                                      Seconds to connect, and to reconnect after a lost
                                      link. (default: 20.0)
              --reboot-timeout <SECONDS>
                                      Seconds from the reset until the device answers again
                                      (MCUboot swaps meanwhile). (default: 60.0)
              --chunk-timeout <SECONDS>
                                      Seconds to wait for the device to acknowledge one
                                      upload chunk. (default: 5.0)
              --first-chunk-timeout <SECONDS>
                                      Seconds to wait for the first chunk's answer (the
                                      device erases first). (default: 40 per started MiB of
                                      the image)

            PLAN lists one device per row: CSV with a header row, or JSON lines with the
            same keys. Columns: device and image (required), key, expect_version, mode,
            min_battery and passkey; an empty cell takes the command line's value, a cell
            overrides it. Any other column (a serial number, notes) is kept and echoed in
            the device's report line. device is anything 'dfu flash --device' takes;
            relative paths are read from the plan's directory, also those inside a sim:
            device (key=, enc_key=); '#' starts a comment line. Every row is checked before
            anything runs: one bad row refuses the plan (exit 2).

            Each device is updated as 'dfu flash' does it, with its own journal. A device
            whose journal says an earlier run finished this update with the same file is
            asked first (one connection, nothing sent): skipped if it runs the image (SMP:
            the running image's hash; Nordic: the version its application reports), flashed
            if not, and reported not-checked, with its failure's exit status, if it cannot
            be asked. One cut off resumes where the device stopped: run the same batch again
            after fixing what failed. --parallel N devices run at once; Bluetooth devices
            are spread over the --adapter given (repeat it for several, or give 'all' for
            every powered one; by default the first powered one), at most --per-adapter on
            each, and each adapter sets up one connection at a time (many controllers refuse
            a second one while one is pending) while the transfers run in parallel. A
            passkey cell pairs that device when it asks; passkeys are never printed.

            --dry-run checks every device as 'dfu flash --dry-run' does and sends nothing;
            each is reported as checked, or failed with the exit status the real run would
            give.

            On a terminal a line per device in flight shows its stage and progress; each
            device gets one line when it ends, and a summary follows. With --json (and
            always into --report FILE) each device is one JSON line: device (in full),
            image, protocol, result (ok, checked, failed, skipped, not-checked,
            interrupted), exit code, the stage it ended in, versions before and after,
            duration, bytes, error and the plan's extra columns; then one summary line
            (docs/json-events.md). --report never writes over the plan, and replaces a file
            that is not a dfu batch report only with --force.

            The exit status is 0 when every device ended ok, skipped or checked; else the
            most severe of the devices' codes, in the order of the list below (each device's
            own is in its line). 2 only when nothing was started.

            Examples:
              dfu batch line-7.csv --key signing-pub.pem --parallel 4 --report line-7.jsonl
              dfu batch plan.jsonl --adapter hci0 --adapter hci1 --parallel 8 --json
              dfu batch plan.csv --mode confirm-only --min-battery 50

            Exit status:
              130  interrupted by SIGINT or SIGTERM: run the batch again, or 'dfu resume'
              1    internal error (a bug in dfu)
              2    usage error, or a plan that cannot run: nothing was started
              3    a file or key that cannot be used; also a row refused when its turn
                   came while other devices ran
              8    a device's check after reboot failed (rolled back, wrong version)
              7    a device rejected the update
              9    a device's authenticated link could not be set up (pairing)
              4    a precondition not met on a device (battery, downgrade, slot size)
              6    a transfer interrupted (resumable)
              5    a device not reachable (also one not checked for that reason)
              0    every device runs its new image (or was asked and already did)

            """)
    }

    @Test func resumeHelpMatchesSnapshot() throws {
        let run = try DFURun.run(["resume", "--help"])
        #expect(run.exitCode == 0)
        #expect(run.stdout == """
            OVERVIEW: Finish updates that were cut off (from the journal dfu keeps).

            USAGE: dfu resume [options]

            OPTIONS:
              --device <DEVICE>       Only the update of this device (as given to 'dfu flash
                                      --device').
              --list                  List the unfinished updates instead of resuming them.
              --forget                Forget unfinished updates (their journals): of
                                      --device, --older-than DAYS or --all; the devices keep
                                      what they hold.
              --all                   With --forget: every unfinished update.
              --older-than <DAYS>     With --list or --forget: only updates whose journal
                                      was last written more than DAYS days ago.
              --json                  Print one JSON object per line on stdout (NDJSON):
                                      each event, then a result line; nothing on stderr.
                                      Fields: docs/json-events.md.
              -v, --verbose           Log each step on stderr (never key material or image
                                      bytes).
              -h, --help              Show this help.

            DEVICE OPTIONS:
              --adapter <hciN>        BlueZ adapter for Bluetooth devices, e.g. hci1
                                      ('bluetoothctl list'); by default the first powered
                                      one.
              --full-addresses        Show Bluetooth addresses in full instead of shortened
                                      (…:EE:FF).

            PAIRING OPTIONS:
              --passkey <N>           The device's six-digit passkey (000000-999999), for
                                      devices that require an authenticated link (Zephyr's
                                      default for SMP with Bluetooth pairing); dfu pairs
                                      with it when the device asks. Without it, on a
                                      terminal dfu asks for the passkey when needed.
              --pair                  Pair and bond first, even if the device does not ask
                                      for it (needs --passkey, or a terminal).

            TIMEOUT OPTIONS:
              --connect-timeout <SECONDS>
                                      Seconds to connect, and to reconnect after a lost
                                      link. (default: 20.0)
              --reboot-timeout <SECONDS>
                                      Seconds from the reset until the device answers again
                                      (MCUboot swaps meanwhile). (default: 60.0)
              --chunk-timeout <SECONDS>
                                      Seconds to wait for the device to acknowledge one
                                      upload chunk. (default: 5.0)
              --first-chunk-timeout <SECONDS>
                                      Seconds to wait for the first chunk's answer (the
                                      device erases first). (default: 40 per started MiB of
                                      the image)

            Every 'dfu flash' that changed the device (it took bytes of the update, or was
            reset or marked) keeps a journal of its update in $XDG_STATE_HOME/dfu/ (by
            default ~/.local/state/dfu/): the device, the file with its SHA-256, the
            options, the stage it reached; a run that ended before (the file, the
            connection, a precondition, an image the device refused) left nothing to finish.
            'dfu resume' runs each unfinished update again with the same options, one after
            another: the file must still be the same (else exit 3: run 'dfu flash' to start
            over), the device says how much it holds and the upload continues from there; an
            update cut off after the reset only reconnects, checks the version and confirms.
            Timeouts, --passkey, --adapter and the output flags given here apply to the
            resumed runs; one line at the end says how each ended. --list names each device
            in full, as --device takes it; --forget drops unfinished updates (a finished
            one's journal stays). A journal file that cannot be read is moved aside with a
            warning, never used.

            Examples:
              dfu resume
              dfu resume --device C2:11:40:55:7A:01 --passkey 123456
              dfu resume --list
              dfu resume --forget --device udp:192.0.2.7:1337
              dfu resume --forget --older-than 7
              dfu resume --forget --all

            Exit status:
              0    every update resumed is finished, or there was nothing to resume
              1    internal error (a bug in dfu)
              2    usage error, or a journal that cannot be resumed
              3    the file changed since the update started, or it cannot be used
              4-9  as 'dfu flash'; with several updates the most severe among them
              130  interrupted by SIGINT or SIGTERM: run 'dfu resume' again

            """)
    }

    @Test func scanHelpMatchesSnapshot() throws {
        let run = try DFURun.run(["scan", "--help"])
        #expect(run.exitCode == 0)
        #expect(run.stdout == """
            OVERVIEW: List Bluetooth LE devices or serial ports with SMP or Nordic DFU.

            USAGE: dfu scan [options]

            OPTIONS:
              --timeout <SECONDS>     How long to listen. (default: 10)
              --rssi-min <DBM>        Leave out devices heard weaker than this, e.g. -70
                                      (from -127 to 20).
              --all                   List every device heard, not only those offering SMP
                                      or Nordic DFU.
              --adapter <hciN>        BlueZ adapter for Bluetooth devices, e.g. hci1
                                      ('bluetoothctl list'); by default the first powered
                                      one.
              --serial                List the serial ports (USB CDC ACM, USB-UART bridges,
                                      /dev/serial/by-id) instead of Bluetooth devices, and
                                      what answers on each: SMP in console or raw framing,
                                      or a Nordic Secure DFU bootloader.
              --no-probe              With --serial: list the ports without opening them.
              --probe-timeout <SECONDS>
                                      With --serial: how long each probe waits for an answer
                                      (up to 60). (default: 1)
              --baud <N>              With --serial: the line speed to probe at. (default:
                                      115200)
              --json                  Print one JSON object per line on stdout (NDJSON):
                                      each device as it is found, then a result line;
                                      nothing on stderr. Fields: docs/json-events.md.
              -v, --verbose           Log each step on stderr (never key material or image
                                      bytes).
              -h, --help              Show this help.

            Listens through BlueZ for --timeout seconds and lists each device advertising
            the SMP service (8D53DC1D-1DB7-4CD3-868B-8A527460AA84), updated with MCUboot
            images, or Nordic Secure DFU (0xFE59), updated with Nordic DFU packages; --all
            lists every device heard. Each row is the device's address, name, signal
            strength (RSSI, dBm) and protocol. Addresses are shown in full: pass one to 'dfu
            info --device' or 'dfu flash --device', or use name:NAME.

            On a terminal each device is printed when it is first heard; otherwise the table
            comes at the end, strongest first. Other programs may scan at the same time
            (bluetoothctl, GNOME): BlueZ merges their scans, and dfu keeps only the devices
            that pass its own filter.

            --serial lists the serial ports instead (/dev/serial/by-id, ttyACM*, ttyUSB*):
            each row is the --device text for the port (its by-id name when it has one), the
            tty, the USB vendor and product ids, manufacturer, product, serial number and
            interface, and what answers. dfu opens every port (all at once) and asks until
            one question is answered, each waiting up to --probe-timeout: an SMP echo in
            console framing, then as a raw packet, then a Nordic Secure DFU ping. A port
            another program holds shows as busy, one you may not open says which group to
            join; neither stops the scan. --no-probe lists the ports without opening them.
            The Bluetooth options (--timeout, --rssi-min, --all, --adapter) do not combine
            with --serial.

            Examples:
              dfu scan
              dfu scan --timeout 5 --rssi-min -70
              dfu scan --all --adapter hci1 --json
              dfu scan --serial
              dfu scan --serial --baud 1000000 --json

            Exit status:
              0    the scan ran, whether or not devices were found
              1    internal error (a bug in dfu)
              2    usage error
              5    BlueZ unusable (bluetoothd not running, access denied, adapter off)
              130  interrupted by SIGINT or SIGTERM

            """)
    }

    @Test func infoHelpMatchesSnapshot() throws {
        let run = try DFURun.run(["info", "--help"])
        #expect(run.exitCode == 0)
        #expect(run.stdout == """
            OVERVIEW: Show what a device reports: image slots or DFU state, battery, MTU.

            USAGE: dfu info --device <DEVICE> [options]

            OPTIONS:
              --connect-timeout <SECONDS>
                                      Seconds to connect, retries included. (default: 20.0)
              --protocol <NAME>       Read the device with this protocol: smp or nordic
                                      (default: the one its services show, or that answers
                                      on a serial port).
              --json                  Print the result as one JSON object on stdout instead
                                      of text.
              -v, --verbose           Log each step on stderr (never key material or image
                                      bytes).
              -h, --help              Show this help.

            DEVICE OPTIONS:
              --device <DEVICE>       The device: a Bluetooth address (AA:BB:CC:DD:EE:FF, as
                                      'dfu scan' lists it) or name:NAME (its advertised
                                      name), through BlueZ; sim[:KEY=VALUE,…], the built-in
                                      virtual device; udp:HOST:PORT, an SMP server over UDP;
                                      or serial:PATH[,baud=N,raw,recovery,rtscts], a device
                                      on a serial port.
              --adapter <hciN>        BlueZ adapter for Bluetooth devices, e.g. hci1
                                      ('bluetoothctl list'); by default the first powered
                                      one.
              --full-addresses        Show Bluetooth addresses in full instead of shortened
                                      (…:EE:FF).

            PAIRING OPTIONS:
              --passkey <N>           The device's six-digit passkey (000000-999999), for
                                      devices that require an authenticated link (Zephyr's
                                      default for SMP with Bluetooth pairing); dfu pairs
                                      with it when the device asks. Without it, on a
                                      terminal dfu asks for the passkey when needed.
              --pair                  Pair and bond first, even if the device does not ask
                                      for it (needs --passkey, or a terminal).

            Connects as 'dfu flash' does and reads, without changing anything: the link (ATT
            MTU, largest write, and PHY and connection interval where the transport knows
            them; BlueZ does not report them; over a serial port the port, baud rate,
            framing and packet size instead), the MCUmgr parameters (buffer size and count:
            the upload window), every image slot with its version, hash and state (running,
            pending for the next reset, confirmed), the slot size, the bootloader mode, the
            Battery Service level and the Device Information firmware revision, and over
            BlueZ whether the link is paired, bonded, encrypted and authenticated. What the
            device does not report is shown as such.

            A Nordic Secure DFU device (found by its services, or with --protocol nordic) is
            shown as a bootloader, with what its init packet and firmware objects hold (how
            far an interrupted update got; Select changes nothing), or as an application
            with buttonless DFU; --protocol smp reads a device that offers both as SMP (the
            default then).

            A serial port shows no services: without --protocol it is asked as 'dfu scan
            --serial' asks (an SMP echo in the console framing, then raw, then a Nordic DFU
            ping) until one answers or --connect-timeout passes. An nRF5 SDK serial
            bootloader is shown with its MTU, DFU protocol version, chip and images
            (bootloader, SoftDevice, application) and what its objects hold.

            Devices as for 'dfu flash': a Bluetooth address or name:NAME through BlueZ ('dfu
            scan' lists them), sim[:KEY=VALUE,…] for the built-in virtual device,
            udp:HOST:PORT for an SMP server over UDP, serial:PATH[,baud=N][,raw][,rtscts]
            for a serial port.

            Examples:
              dfu info --device C2:11:40:55:7A:01
              dfu info --device name:sensor-12 --adapter hci1 --json
              dfu info --device sim:version=1.2.3,battery=55
              dfu info --device C2:11:40:55:7A:02 --protocol nordic
              dfu info --device serial:/dev/ttyACM0,baud=1000000

            Exit status:
              0    the device answered; its information is printed
              1    internal error (a bug in dfu)
              2    usage error
              5    the device cannot be reached, or BlueZ or the adapter cannot be used
              7    the device refused the image list or broke the protocol
              9    the device requires an authenticated link that could not be set up
              130  interrupted by SIGINT or SIGTERM

            """)
    }

    @Test func simHelpMatchesSnapshot() throws {
        let run = try DFURun.run(["sim", "--help"])
        #expect(run.exitCode == 0)
        #expect(run.stdout == """
            OVERVIEW: Serve the virtual device over UDP or BLE for others to update.

            USAGE: dfu sim --serve <udp:HOST:PORT|serial:PATH|bluez:hciN> [options]

            OPTIONS:
              --serve <udp:HOST:PORT|serial:PATH|bluez:hciN>
                                      Where to serve: udp:127.0.0.1:1337 or udp:[::1]:1337
                                      (port 0 picks a free port),
                                      serial:/tmp/ttyDFU[,OPTIONS] (a pseudo-terminal linked
                                      at that path; OPTIONS: baud=N, raw, noise[=N], usb,
                                      garble=N, recovery, app-silent), or bluez:hci0 to be a
                                      BLE peripheral on that adapter.
              --name <NAME>           The name to advertise with bluez: (at most 29 bytes).
                                      (default: dfu-sim- and the last 4 characters of the
                                      device ID)
              --bootloader-adapter <hciN>
                                      With --protocol nordic: serve the bootloader on this
                                      other adapter, at its address, as a bootloader whose
                                      address no rule derives from the application's (an
                                      application with a resolvable private address); dfu
                                      then finds it by name.
              --readvertise <SECONDS>
                                      With bluez:, start advertising again every SECONDS
                                      while no central is connected, for a controller that
                                      reports an advertiser only when its advertising or a
                                      scan starts (btvirt, on the BlueZ test rig); a radio
                                      needs none. (default: off)
              --security <LEVEL>      With bluez:, what the SMP characteristic requires of a
                                      central's link: open, encrypt or authen (an
                                      authenticated link, Zephyr's default with Bluetooth
                                      pairing; needs --passkey). (default: open)
              --passkey <N>           With --security, the device's fixed six-digit passkey
                                      (000000-999999); the sim's own agent enters it. Never
                                      printed.
              --full-addresses        Show central and adapter addresses in full; they are
                                      shortened (…:EE:FF) by default.
              -v, --verbose           Also log every packet in and out, and requests the
                                      device dropped, on stderr.
              -h, --help              Show this help.

            VIRTUAL DEVICE OPTIONS (the sim:KEY=VALUE keys as flags):
              --protocol <smp|nordic>
                                      Update protocol: smp (a Zephyr device, over UDP, BLE
                                      or a serial line) or nordic (an nRF5 SDK device:
                                      buttonless app and secure bootloader, over BLE or its
                                      bootloader on a serial line). (default: smp)
              --version <M.m.r[+b]>   Version the device runs at start. (default: 1.0.0)
              --battery <PERCENT>     Battery level, 0-100, as the Battery Service reports
                                      it. BLE only: over UDP or a serial line it only
                                      changes the derived identity. (default: 80)
              --key <PUB.pem>         The bootloader's public key: an image signed with
                                      another key is refused at boot. (default: the sample
                                      test key)
              --enc-key <PRIV.pem>    The private key MCUboot decrypts encrypted images with
                                      (P-256, X25519 or RSA-2048, as imgtool sign -E
                                      encrypted for); without it an encrypted image is
                                      refused at boot.
              --id <ID>               Device identity, as an address would be. (default:
                                      derived from the other options)
              --mtu <BYTES>           ATT MTU, 23-517. BLE only: over UDP or a serial line
                                      it only changes the derived identity. (default: 498)
              --phy <1M|2M>           Radio PHY. BLE only, as --mtu. (default: 2M)
              --interval <MS>         Connection interval, 7.5-4000 ms in steps of 1.25. BLE
                                      only, as --mtu. (default: 7.5)
              --buf-size <BYTES>      MCUmgr buffer size, 64-65535; a longer datagram is cut
                                      to it and answered rc 9. (default: 2475)
              --buf-count <N>         MCUmgr buffer count, 2-64 (window = count - 1).
                                      (default: 4)
              --slot-size <SIZE>      Slot size: bytes, 0x hex or K/M, whole 4 KiB pages,
                                      64K-16M. (default: 0x60000)
              --reassembly <on|off>   Whether packets may span BLE writes. BLE only: UDP is
                                      one packet per datagram, a serial line one per frame.
                                      (default: on)
              --swap <move|scratch|overwrite>
                                      How MCUboot installs an update: swap using move, swap
                                      using scratch, or overwrite-only (no revert; the only
                                      mode that decompresses compressed images). (default:
                                      move)
              --images <1|2>          Updatable images: 2 makes an nRF5340-like device whose
                                      image 1 (the network core) has its own slots and
                                      version. (default: 1)
              --bootloader <KIND>     What updates the device: mcuboot (swap), direct-xip,
                                      direct-xip-revert, ram-load or ram-load-revert (runs
                                      the newest image from either slot), or a kind dfu
                                      recognises and refuses: firmware-loader (bootloader
                                      info mode 7) or suit (answers SMP group 66). (default:
                                      mcuboot)
              --reset-ms <MS>         Milliseconds from the reset reply to the reset, as
                                      Zephyr's CONFIG_MCUMGR_GRP_OS_RESET_MS, 0-60000.
                                      (default: 250)
              --seed <N>              Seed for @random fault points. (default: 0)
              --fault <FAULT>         A fault to inject: disconnect@40%, reboot@60%,
                                      stall@N, corrupt@N, duplicate@N, reorder@N (the reply
                                      swaps with the next), truncate@N[:BYTES] (the reply's
                                      last bytes missing), delay@N:1500ms, busy@N[:COUNT]
                                      (rc 10 to the next COUNT uploads) or battery@N:PERCENT
                                      (the battery falls to PERCENT); N a share of the
                                      image, a byte count or 'random'. Or a link drop at a
                                      request: drop@request:NAME[:N] (the answer lost),
                                      drop-before@… (the request lost) or drop-after@…
                                      (answered first), e.g. drop@request:reset,
                                      drop-before@request:state-write:2,
                                      drop-after@request:upload:last; reboot@,
                                      reboot-before@ and reboot-after@request:… reset the
                                      device there instead. '+' joins several in one value.
                                      (can be repeated)
              --chip <nrf52832|nrf52833|nrf52840>
                                      nordic: the chip, with the nRF5 SDK 17.1 flash layout:
                                      the largest update the bootloader takes (316 KiB on
                                      nrf52832 and nrf52833, 824 KiB on nrf52840) and the
                                      SoftDevice --sd defaults to. (default: nrf52832)
              --sdk <15|16|17>        nordic: the nRF5 SDK the bootloader follows; 15 keeps
                                      transfer progress across a link drop. (default: 17)
              --hw <N>                nordic: the bootloader's hardware version
                                      (NRF_DFU_HW_VERSION). (default: 52)
              --sd <FWID>             nordic: the installed SoftDevice's FWID, decimal or 0x
                                      hex. (default: the chip's, 0x0101 for S132 7.2.0 on
                                      nrf52832, 0x0100 for S140 7.2.0 on nrf52833 and
                                      nrf52840)
              --inactivity <SECONDS|off>
                                      nordic: seconds without DFU activity until the
                                      bootloader gives up, 1-3600, or off. (default: 120)
              --prn-drop <N+M…>       nordic: Packet write numbers (from 1) the bootloader
                                      drops as if its buffers were full.
              --set-name <on|off|resets>
                                      nordic: how the application answers buttonless
                                      set-name: on (SDK 14 and later), off (SDK 13: op code
                                      not supported) or resets (built without the async
                                      SVCI: it resets instead of answering). (default: on)
              --drop <POINT+…>        nordic: where the bootloader closes the link itself:
                                      create:N or execute:N (right after answering the Nth
                                      data object Create or Execute), packet:N (after the
                                      Nth Packet write); '+' joins several.
              --bl-version <N>        nordic: the installed bootloader_version; a bootloader
                                      update must be newer. (default: 1)
              --buttonless <plain|bonds|bonds-unpaired>
                                      nordic: the buttonless service: plain (bootloader at
                                      the address + 1), bonds (for bonded centrals; the
                                      bootloader keeps the address) or bonds-unpaired
                                      (answers 'not bonded'). (default: plain)
              --cp-fault <KIND@REQUEST:N+…>
                                      nordic: Control Point answers the bootloader damages,
                                      each once: KIND corrupt (last byte inverted), truncate
                                      (last byte missing), drop (never sent) or duplicate
                                      (sent twice); REQUEST create, prn, checksum (a packet
                                      receipt counts), execute or select; N the Nth answer
                                      to it, e.g. corrupt@checksum:5; '+' joins several.

            The device is the one '--device sim:KEY=VALUE,…' builds (a Zephyr application
            with MCUmgr on MCUboot, two slots). Its slots, upload session and boots last as
            long as the server, so several clients can talk to it in turn.

            udp:HOST:PORT serves one SMP packet per datagram, as Zephyr's UDP transport
            does. When ready it prints 'dfu sim: serving SMP over UDP on HOST:PORT (device
            ID, version V)', with the port the system chose for port 0. smpclient and smpmgr
            always use port 1337: run several servers on 127.0.0.2, 127.0.0.3, …

            serial:PATH makes a pseudo-terminal, links PATH to it and serves SMP on it as
            Zephyr's UART transport does, so 'dfu flash --device serial:PATH', smpmgr or any
            serial SMP client can use it. Options after PATH, comma-separated: baud=N (the
            modelled line rate, default 115200: bytes take 10 bits of line time each way),
            raw (raw SMP packets instead of the console framing), noise[=N] (a log line
            every N replies, default 5), usb (the port vanishes while the device resets and
            comes back at PATH, as a USB CDC ACM port does), garble=N (every N-th reply
            garbled on the wire), recovery (the device powers up in MCUboot's serial
            recovery, as if its recovery button were held: image list, upload straight into
            the primary slot, reset), app-silent (the application answers nothing on the
            line). The application's 'os reset' with boot_mode 1 also reboots into the
            serial recovery; after the recovery's reset MCUboot starts the image in the
            primary slot if it validates, else stays in recovery. When ready it prints 'dfu
            sim: serving SMP on serial PATH (/dev/pts/N, BAUD baud, FRAMING framing[,
            MCUboot serial recovery]) (device ID, version V)'.

            bluez:hciN registers the device with bluetoothd as a GATT application (the SMP
            service, Battery, Device Information) on adapter hciN and advertises it,
            connectable, with the SMP service UUID and a name (--name; default dfu-sim- and
            the end of the device ID). When ready it prints 'dfu sim: serving SMP over BLE
            on hciN as NAME (address ADDR, device ID, version V)'. A reset drops the link
            and stops advertising until the device is up again. The MTU is the one the
            central and bluetoothd agree on, printed at the central's first request;
            notifications carry MTU - 5 bytes (what bluetoothd sends a BlueZ central), at
            most 510. bluetoothd up to 5.68 drops written values over 510 bytes, so at its
            default MTU of 517 a client that fills the MTU (smpclient, nRF Connect) never
            gets an answer: the MTU line then warns, and ExchangeMTU=498 in the [GATT]
            section of /etc/bluetooth/main.conf fixes it. Needs a powered LE adapter, and
            root or membership of the 'bluetooth' group (bluetoothd's D-Bus policy). --mtu,
            --phy and --interval only shape the in-process link (--device sim) and the
            device ID here.

            --protocol nordic serves an nRF52 with the nRF5 SDK's secure bootloader instead,
            over BLE or on a serial line. Over BLE its application advertises the Nordic DFU
            service (0xFE59) with buttonless DFU, Battery and Device Information; a
            buttonless request resets it into the bootloader, which advertises at the same
            address as DfuTarg (or the name the central set) with the Control Point and
            Packet characteristics, and after the update (or an abort, or --inactivity) the
            new application comes back. On real hardware the bootloader takes the address +
            1; an adapter cannot change its address, so here it keeps it (dfu looks at
            both), or it takes another adapter's (--bootloader-adapter), where only its name
            finds it. --chip, --sdk, --hw, --sd, --inactivity, --prn-drop and --drop shape
            the bootloader, --cp-fault damages its answers; --key is its public key. On
            serial:PATH[,baud=N][,usb] it is the bootloader's serial DFU (SLIP frames, as
            'nrfutil dfu serial' speaks it), in DFU mode from the start: MTU 131 as over a
            UART, or 2051 with usb, whose port also vanishes while the device resets; after
            the update the new application runs and reads nothing on the line.

            Either way it then prints one line per connection, upload, reset, boot and
            injected fault (--verbose adds every packet in and out on stderr).

            Examples:
              dfu sim --serve udp:127.0.0.1:1337 --version 1.0.0
              dfu sim --serve udp:127.0.0.1:0 --fault disconnect@40% --fault reboot@60%
              dfu flash app.signed.bin --device udp:127.0.0.1:1337      # from another shell
              dfu sim --serve serial:/tmp/ttyDFU,baud=1000000,noise,usb
              dfu flash app.signed.bin --device serial:/tmp/ttyDFU,baud=1000000
              sudo dfu sim --serve bluez:hci0 --name sensor-12
              sudo dfu sim --serve bluez:hci0 --security authen --passkey 123456
              dfu flash app.signed.bin --device name:sensor-12     # from another computer
              sudo dfu sim --serve bluez:hci0 --protocol nordic --name sensor-12
              dfu flash app-2.0.0.zip --device name:sensor-12 --expect-version 2.0.0

            Exit status:
              0    stopped by SIGINT or SIGTERM (for a server, the normal end)
              1    the UDP or serial server stopped by itself (a socket error)
              2    usage error, including an address that cannot be bound or a PATH
                   that cannot be linked
              5    BlueZ cannot be used: no system bus, bluetoothd not running, access
                   denied, no such adapter, adapter powered off, a registration refused;
                   or bluetoothd or the adapter went away while serving

            """)
    }

    @Test func imageHelpMatchesSnapshot() throws {
        let run = try DFURun.run(["image", "--help"])
        #expect(run.exitCode == 0)
        #expect(run.stdout == """
            OVERVIEW: List, test, confirm or erase a device's image slots (SMP).

            USAGE: dfu image <command> [options]

            COMMANDS:
              list          List a device's image slots: versions, hashes and flags.
              test          Mark an uploaded image to boot once, for test, at the next
                            reset.
              confirm       Confirm the running image, or make an uploaded one permanent.
              erase         Erase an image slot (by default the one uploads go to).

            OPTIONS:
              -h, --help    Show this help.

            See 'dfu image <command> --help' for a command's options.

            """)
    }

    @Test func imageListHelpMatchesSnapshot() throws {
        let run = try DFURun.run(["image", "list", "--help"])
        #expect(run.exitCode == 0)
        #expect(run.stdout == """
            OVERVIEW: List a device's image slots: versions, hashes and flags.

            USAGE: dfu image list --device <DEVICE> [options]

            OPTIONS:
              --connect-timeout <SECONDS>
                                      Seconds to connect, retries included. (default: 20.0)
              --json                  Print the result as one JSON object on stdout instead
                                      of text.
              -v, --verbose           Log each step on stderr (never key material or image
                                      bytes).
              -h, --help              Show this help.

            DEVICE OPTIONS:
              --device <DEVICE>       The device: a Bluetooth address (AA:BB:CC:DD:EE:FF, as
                                      'dfu scan' lists it) or name:NAME (its advertised
                                      name), through BlueZ; sim[:KEY=VALUE,…], the built-in
                                      virtual device; udp:HOST:PORT, an SMP server over UDP;
                                      or serial:PATH[,baud=N,raw,recovery,rtscts], a device
                                      on a serial port.
              --adapter <hciN>        BlueZ adapter for Bluetooth devices, e.g. hci1
                                      ('bluetoothctl list'); by default the first powered
                                      one.
              --full-addresses        Show Bluetooth addresses in full instead of shortened
                                      (…:EE:FF).

            PAIRING OPTIONS:
              --passkey <N>           The device's six-digit passkey (000000-999999), for
                                      devices that require an authenticated link (Zephyr's
                                      default for SMP with Bluetooth pairing); dfu pairs
                                      with it when the device asks. Without it, on a
                                      terminal dfu asks for the passkey when needed.
              --pair                  Pair and bond first, even if the device does not ask
                                      for it (needs --passkey, or a terminal).

            Connects as 'dfu flash' does and reads the image list (SMP image state): for
            each image number (several on an nRF5340: 1 is the network core) and slot (0
            primary, 1 secondary), the version, the flags the device sets (active: running;
            confirmed; pending: boots at the next reset; permanent: for good, not for test;
            bootable) and the slot's SHA256 hash, which 'dfu image test' and 'dfu image
            confirm' take. An empty slot is shown as such. Nothing on the device changes.

            Devices as for 'dfu flash': a Bluetooth address or name:NAME through BlueZ ('dfu
            scan' lists them; --passkey for a device that requires pairing),
            sim[:KEY=VALUE,…] for the built-in virtual device (a new one for each run: use
            'dfu sim --serve' and udp:HOST:PORT for a device that keeps its state between
            commands), udp:HOST:PORT for an SMP server over UDP. A Nordic Secure DFU device
            has no SMP: it is refused before anything is sent (exit 4).

            Examples:
              dfu image list --device C2:11:40:55:7A:01
              dfu image list --device udp:192.0.2.7:1337 --json
              dfu image list --device sim:images=2

            Exit status:
              0    done
              1    internal error (a bug in dfu)
              2    usage error
              4    the device is a Nordic Secure DFU device (no SMP): nothing was sent
              5    the device cannot be reached, or BlueZ or the adapter cannot be used
              7    the device refused the request or broke the protocol
              9    the device requires an authenticated link that could not be set up
              130  interrupted by SIGINT or SIGTERM

            """)
    }

    @Test func imageTestHelpMatchesSnapshot() throws {
        let run = try DFURun.run(["image", "test", "--help"])
        #expect(run.exitCode == 0)
        #expect(run.stdout == """
            OVERVIEW: Mark an uploaded image to boot once, for test, at the next reset.

            USAGE: dfu image test <HASH> --device <DEVICE> [options]

            ARGUMENTS:
              <HASH>                  The slot's SHA256 hash, 64 hex digits, as 'dfu image
                                      list' shows it.

            OPTIONS:
              --connect-timeout <SECONDS>
                                      Seconds to connect, retries included. (default: 20.0)
              --json                  Print the result as one JSON object on stdout instead
                                      of text.
              -v, --verbose           Log each step on stderr (never key material or image
                                      bytes).
              -h, --help              Show this help.

            DEVICE OPTIONS:
              --device <DEVICE>       The device: a Bluetooth address (AA:BB:CC:DD:EE:FF, as
                                      'dfu scan' lists it) or name:NAME (its advertised
                                      name), through BlueZ; sim[:KEY=VALUE,…], the built-in
                                      virtual device; udp:HOST:PORT, an SMP server over UDP;
                                      or serial:PATH[,baud=N,raw,recovery,rtscts], a device
                                      on a serial port.
              --adapter <hciN>        BlueZ adapter for Bluetooth devices, e.g. hci1
                                      ('bluetoothctl list'); by default the first powered
                                      one.
              --full-addresses        Show Bluetooth addresses in full instead of shortened
                                      (…:EE:FF).

            PAIRING OPTIONS:
              --passkey <N>           The device's six-digit passkey (000000-999999), for
                                      devices that require an authenticated link (Zephyr's
                                      default for SMP with Bluetooth pairing); dfu pairs
                                      with it when the device asks. Without it, on a
                                      terminal dfu asks for the passkey when needed.
              --pair                  Pair and bond first, even if the device does not ask
                                      for it (needs --passkey, or a terminal).

            Finds the slot whose hash is HASH in the image list, then marks it for test (SMP
            image state write, confirm false): MCUboot boots it at the next reset ('dfu
            reset'), and goes back to the previous image on the reset after that unless the
            new one is confirmed ('dfu image confirm' while it runs). Prints the image list
            after the change, which shows the slot pending. A hash no slot holds is refused
            before anything is written, with the hashes the device has.

            Devices as for 'dfu flash': a Bluetooth address or name:NAME through BlueZ ('dfu
            scan' lists them; --passkey for a device that requires pairing),
            sim[:KEY=VALUE,…] for the built-in virtual device (a new one for each run: use
            'dfu sim --serve' and udp:HOST:PORT for a device that keeps its state between
            commands), udp:HOST:PORT for an SMP server over UDP. A Nordic Secure DFU device
            has no SMP: it is refused before anything is sent (exit 4).

            Examples:
              HASH=$(dfu image list --device name:sensor-12 --json | jq -r .slots[1].sha256)
              dfu image test "$HASH" --device name:sensor-12
              dfu image test "$HASH" --device udp:192.0.2.7:1337 --json

            Exit status:
              0    done
              1    internal error (a bug in dfu)
              2    usage error
              4    the device is a Nordic Secure DFU device (no SMP): nothing was sent
              5    the device cannot be reached, or BlueZ or the adapter cannot be used
              7    the device refused the request or broke the protocol
              9    the device requires an authenticated link that could not be set up
              130  interrupted by SIGINT or SIGTERM

            """)
    }

    @Test func imageConfirmHelpMatchesSnapshot() throws {
        let run = try DFURun.run(["image", "confirm", "--help"])
        #expect(run.exitCode == 0)
        #expect(run.stdout == """
            OVERVIEW: Confirm the running image, or make an uploaded one permanent.

            USAGE: dfu image confirm [<HASH>] --device <DEVICE> [options]

            ARGUMENTS:
              <HASH>                  The SHA256 hash of the image to confirm, 64 hex
                                      digits, as 'dfu image list' shows it (default: the
                                      running image).

            OPTIONS:
              --connect-timeout <SECONDS>
                                      Seconds to connect, retries included. (default: 20.0)
              --json                  Print the result as one JSON object on stdout instead
                                      of text.
              -v, --verbose           Log each step on stderr (never key material or image
                                      bytes).
              -h, --help              Show this help.

            DEVICE OPTIONS:
              --device <DEVICE>       The device: a Bluetooth address (AA:BB:CC:DD:EE:FF, as
                                      'dfu scan' lists it) or name:NAME (its advertised
                                      name), through BlueZ; sim[:KEY=VALUE,…], the built-in
                                      virtual device; udp:HOST:PORT, an SMP server over UDP;
                                      or serial:PATH[,baud=N,raw,recovery,rtscts], a device
                                      on a serial port.
              --adapter <hciN>        BlueZ adapter for Bluetooth devices, e.g. hci1
                                      ('bluetoothctl list'); by default the first powered
                                      one.
              --full-addresses        Show Bluetooth addresses in full instead of shortened
                                      (…:EE:FF).

            PAIRING OPTIONS:
              --passkey <N>           The device's six-digit passkey (000000-999999), for
                                      devices that require an authenticated link (Zephyr's
                                      default for SMP with Bluetooth pairing); dfu pairs
                                      with it when the device asks. Without it, on a
                                      terminal dfu asks for the passkey when needed.
              --pair                  Pair and bond first, even if the device does not ask
                                      for it (needs --passkey, or a terminal).

            Without HASH, confirms the image the device runs (SMP image state write, confirm
            true), as 'mcumgr image confirm' does: an image booted for test ('dfu image
            test', 'dfu flash --mode test-only') stays for good, without its file. With the
            HASH of the running image, the same; with the HASH of an image that does not
            run, it boots at the next reset for good: no test, no way back. Prints the image
            list after the change.

            Devices as for 'dfu flash': a Bluetooth address or name:NAME through BlueZ ('dfu
            scan' lists them; --passkey for a device that requires pairing),
            sim[:KEY=VALUE,…] for the built-in virtual device (a new one for each run: use
            'dfu sim --serve' and udp:HOST:PORT for a device that keeps its state between
            commands), udp:HOST:PORT for an SMP server over UDP. A Nordic Secure DFU device
            has no SMP: it is refused before anything is sent (exit 4).

            Examples:
              dfu image confirm --device C2:11:40:55:7A:01
              dfu image confirm "$HASH" --device udp:192.0.2.7:1337 --json

            Exit status:
              0    done
              1    internal error (a bug in dfu)
              2    usage error
              4    the device is a Nordic Secure DFU device (no SMP): nothing was sent
              5    the device cannot be reached, or BlueZ or the adapter cannot be used
              7    the device refused the request or broke the protocol
              9    the device requires an authenticated link that could not be set up
              130  interrupted by SIGINT or SIGTERM

            """)
    }

    @Test func imageEraseHelpMatchesSnapshot() throws {
        let run = try DFURun.run(["image", "erase", "--help"])
        #expect(run.exitCode == 0)
        #expect(run.stdout == """
            OVERVIEW: Erase an image slot (by default the one uploads go to).

            USAGE: dfu image erase [<SLOT>] --device <DEVICE> [options]

            ARGUMENTS:
              <SLOT>                  The slot to erase, 0-255, numbered across images
                                      (default: the device's choice, slot 1).

            OPTIONS:
              --connect-timeout <SECONDS>
                                      Seconds to connect, retries included. (default: 20.0)
              --json                  Print the result as one JSON object on stdout instead
                                      of text.
              -v, --verbose           Log each step on stderr (never key material or image
                                      bytes).
              -h, --help              Show this help.

            DEVICE OPTIONS:
              --device <DEVICE>       The device: a Bluetooth address (AA:BB:CC:DD:EE:FF, as
                                      'dfu scan' lists it) or name:NAME (its advertised
                                      name), through BlueZ; sim[:KEY=VALUE,…], the built-in
                                      virtual device; udp:HOST:PORT, an SMP server over UDP;
                                      or serial:PATH[,baud=N,raw,recovery,rtscts], a device
                                      on a serial port.
              --adapter <hciN>        BlueZ adapter for Bluetooth devices, e.g. hci1
                                      ('bluetoothctl list'); by default the first powered
                                      one.
              --full-addresses        Show Bluetooth addresses in full instead of shortened
                                      (…:EE:FF).

            PAIRING OPTIONS:
              --passkey <N>           The device's six-digit passkey (000000-999999), for
                                      devices that require an authenticated link (Zephyr's
                                      default for SMP with Bluetooth pairing); dfu pairs
                                      with it when the device asks. Without it, on a
                                      terminal dfu asks for the passkey when needed.
              --pair                  Pair and bond first, even if the device does not ask
                                      for it (needs --passkey, or a terminal).

            Erases a slot (SMP image erase) and prints the image list after it. Without SLOT
            the device picks the slot an upload goes to (slot 1, the application's
            secondary). Slots are numbered as the device numbers them across images: image
            N's primary is 2N, its secondary 2N + 1 (slot 3 is an nRF5340's network core
            upload slot). The device refuses a slot in use (the running image, the one set
            to boot next, or the one it would go back to); it also ends any upload in
            progress, so an interrupted 'dfu flash' starts over. The device erases before it
            answers, which can take tens of seconds on external flash.

            Devices as for 'dfu flash': a Bluetooth address or name:NAME through BlueZ ('dfu
            scan' lists them; --passkey for a device that requires pairing),
            sim[:KEY=VALUE,…] for the built-in virtual device (a new one for each run: use
            'dfu sim --serve' and udp:HOST:PORT for a device that keeps its state between
            commands), udp:HOST:PORT for an SMP server over UDP. A Nordic Secure DFU device
            has no SMP: it is refused before anything is sent (exit 4).

            Examples:
              dfu image erase --device C2:11:40:55:7A:01
              dfu image erase 3 --device name:my-nrf5340 --json

            Exit status:
              0    done
              1    internal error (a bug in dfu)
              2    usage error
              4    the device is a Nordic Secure DFU device (no SMP): nothing was sent
              5    the device cannot be reached, or BlueZ or the adapter cannot be used
              7    the device refused the request or broke the protocol
              9    the device requires an authenticated link that could not be set up
              130  interrupted by SIGINT or SIGTERM

            """)
    }

    @Test func resetHelpMatchesSnapshot() throws {
        let run = try DFURun.run(["reset", "--help"])
        #expect(run.exitCode == 0)
        #expect(run.stdout == """
            OVERVIEW: Reset a device; with --wait, until it is back.

            USAGE: dfu reset --device <DEVICE> [options]

            OPTIONS:
              --wait                  Wait until the device is back after the reset (at most
                                      --reboot-timeout).
              --reboot-timeout <SECONDS>
                                      With --wait: seconds from the reset until the device
                                      answers again (MCUboot may swap meanwhile). (default:
                                      60.0)
              --force                 Reset even if the device's application refuses as busy
                                      (SMP force).
              --connect-timeout <SECONDS>
                                      Seconds to connect, retries included. (default: 20.0)
              --json                  Print the result as one JSON object on stdout instead
                                      of text.
              -v, --verbose           Log each step on stderr (never key material or image
                                      bytes).
              -h, --help              Show this help.

            DEVICE OPTIONS:
              --device <DEVICE>       The device: a Bluetooth address (AA:BB:CC:DD:EE:FF, as
                                      'dfu scan' lists it) or name:NAME (its advertised
                                      name), through BlueZ; sim[:KEY=VALUE,…], the built-in
                                      virtual device; udp:HOST:PORT, an SMP server over UDP;
                                      or serial:PATH[,baud=N,raw,recovery,rtscts], a device
                                      on a serial port.
              --adapter <hciN>        BlueZ adapter for Bluetooth devices, e.g. hci1
                                      ('bluetoothctl list'); by default the first powered
                                      one.
              --full-addresses        Show Bluetooth addresses in full instead of shortened
                                      (…:EE:FF).

            PAIRING OPTIONS:
              --passkey <N>           The device's six-digit passkey (000000-999999), for
                                      devices that require an authenticated link (Zephyr's
                                      default for SMP with Bluetooth pairing); dfu pairs
                                      with it when the device asks. Without it, on a
                                      terminal dfu asks for the passkey when needed.
              --pair                  Pair and bond first, even if the device does not ask
                                      for it (needs --passkey, or a terminal).

            Sends the SMP reset request. The device answers and restarts a moment later;
            MCUboot then boots the image set to boot next ('dfu image test', 'dfu image
            confirm HASH') or goes back to the previous one from an unconfirmed test. With
            --wait, dfu waits until the device is back (over BLE: it dropped the link and
            can be connected again; over UDP: it went silent and answers again), at most
            --reboot-timeout, counting the seconds on a terminal. --force resets a device
            whose application refuses the reset as busy.

            Devices as for 'dfu flash': a Bluetooth address or name:NAME through BlueZ ('dfu
            scan' lists them; --passkey for a device that requires pairing),
            sim[:KEY=VALUE,…] for the built-in virtual device (a new one for each run: use
            'dfu sim --serve' and udp:HOST:PORT for a device that keeps its state between
            commands), udp:HOST:PORT for an SMP server over UDP. A Nordic Secure DFU device
            has no SMP: it is refused before anything is sent (exit 4).

            Examples:
              dfu reset --device C2:11:40:55:7A:01
              dfu reset --device udp:192.0.2.7:1337 --wait --json

            Exit status:
              0    done
              1    internal error (a bug in dfu)
              2    usage error
              4    the device is a Nordic Secure DFU device (no SMP): nothing was sent
              5    the device cannot be reached, or BlueZ or the adapter cannot be used
              7    the device refused the request or broke the protocol
              8    --wait: the device did not come back within --reboot-timeout
              9    the device requires an authenticated link that could not be set up
              130  interrupted by SIGINT or SIGTERM

            """)
    }

    @Test func echoHelpMatchesSnapshot() throws {
        let run = try DFURun.run(["echo", "--help"])
        #expect(run.exitCode == 0)
        #expect(run.stdout == """
            OVERVIEW: Send text to a device and print what it echoes (is MCUmgr up?).

            USAGE: dfu echo <TEXT> --device <DEVICE> [options]

            ARGUMENTS:
              <TEXT>                  The text to send (UTF-8).

            OPTIONS:
              --connect-timeout <SECONDS>
                                      Seconds to connect, retries included. (default: 20.0)
              --json                  Print the result as one JSON object on stdout instead
                                      of text.
              -v, --verbose           Log each step on stderr (never key material or image
                                      bytes).
              -h, --help              Show this help.

            DEVICE OPTIONS:
              --device <DEVICE>       The device: a Bluetooth address (AA:BB:CC:DD:EE:FF, as
                                      'dfu scan' lists it) or name:NAME (its advertised
                                      name), through BlueZ; sim[:KEY=VALUE,…], the built-in
                                      virtual device; udp:HOST:PORT, an SMP server over UDP;
                                      or serial:PATH[,baud=N,raw,recovery,rtscts], a device
                                      on a serial port.
              --adapter <hciN>        BlueZ adapter for Bluetooth devices, e.g. hci1
                                      ('bluetoothctl list'); by default the first powered
                                      one.
              --full-addresses        Show Bluetooth addresses in full instead of shortened
                                      (…:EE:FF).

            PAIRING OPTIONS:
              --passkey <N>           The device's six-digit passkey (000000-999999), for
                                      devices that require an authenticated link (Zephyr's
                                      default for SMP with Bluetooth pairing); dfu pairs
                                      with it when the device asks. Without it, on a
                                      terminal dfu asks for the passkey when needed.
              --pair                  Pair and bond first, even if the device does not ask
                                      for it (needs --passkey, or a terminal).

            Sends TEXT in an SMP echo request and prints the device's answer, which must be
            the same text: a quick check that the device runs MCUmgr and answers over this
            link. An answer with other text is the device's fault (exit 7).

            Devices as for 'dfu flash': a Bluetooth address or name:NAME through BlueZ ('dfu
            scan' lists them; --passkey for a device that requires pairing),
            sim[:KEY=VALUE,…] for the built-in virtual device (a new one for each run: use
            'dfu sim --serve' and udp:HOST:PORT for a device that keeps its state between
            commands), udp:HOST:PORT for an SMP server over UDP. A Nordic Secure DFU device
            has no SMP: it is refused before anything is sent (exit 4).

            Examples:
              dfu echo hello --device C2:11:40:55:7A:01
              dfu echo hello --device udp:192.0.2.7:1337 --json

            Exit status:
              0    done
              1    internal error (a bug in dfu)
              2    usage error
              4    the device is a Nordic Secure DFU device (no SMP): nothing was sent
              5    the device cannot be reached, or BlueZ or the adapter cannot be used
              7    the device refused the request or broke the protocol
              9    the device requires an authenticated link that could not be set up
              130  interrupted by SIGINT or SIGTERM

            """)
    }

    /// Help is read in 80-column terminals: no line of any help is wider.
    @Test(arguments: [["--help"], ["verify", "--help"], ["scan", "--help"], ["info", "--help"], ["flash", "--help"],
                       ["sim", "--help"], ["image", "--help"], ["image", "list", "--help"], ["image", "test", "--help"],
                       ["image", "confirm", "--help"], ["image", "erase", "--help"], ["reset", "--help"], ["echo", "--help"]])
    func everyHelpLineFitsEightyColumns(arguments: [String]) throws {
        let run = try DFURun.run(arguments)
        for line in run.stdoutLines {
            #expect(line.count <= 80, "\(arguments): \(line.count) columns: \(line)")
        }
    }

    /// `--json` is one flag with the same name everywhere, but what it prints differs: its help
    /// says which, per command.
    @Test func jsonHelpSaysWhatEachCommandPrints() throws {
        let verify = try DFURun.run(["verify", "--help"]).stdout
        let flash = try DFURun.run(["flash", "--help"]).stdout
        let scan = try DFURun.run(["scan", "--help"]).stdout
        let info = try DFURun.run(["info", "--help"]).stdout
        #expect(verify.contains("--json                  Print the result as one JSON object on stdout"))
        #expect(info.contains("--json                  Print the result as one JSON object on stdout"))
        #expect(flash.contains("--json                  Print one JSON object per line on stdout (NDJSON):\n"
            + "                          each event, then a result line"))
        #expect(scan.contains("--json                  Print one JSON object per line on stdout (NDJSON):\n"
            + "                          each device as it is found, then a result line"))
        #expect(!flash.contains("Print the result as one JSON object"))
    }

    @Test func versionPrintsNameAndSemanticVersion() throws {
        let run = try DFURun.run(["--version"])
        #expect(run.exitCode == 0)
        #expect(run.stdout.wholeMatch(of: /dfu \d+\.\d+\.\d+\n/) != nil, "got \(run.stdout.debugDescription)")
    }

    @Test(arguments: [
        (["frobnicate"], "unknown command 'frobnicate'", "see 'dfu --help'"),
        (["verfy"], "unknown command 'verfy' (did you mean 'verify'?)", "see 'dfu --help'"),
        ([], "no command given", "see 'dfu --help'"),
        (["--frob"], "unknown option '--frob'", "see 'dfu --help'"),
        (["help", "nosuch"], "unknown command 'nosuch'", "see 'dfu --help'"),
        (["verify", "--frob", "x.bin"], "unknown option '--frob'", "see 'dfu verify --help'"),
        (["verify", "--kye", "k.pem", "x.bin"], "unknown option '--kye' (did you mean --key?)", "see 'dfu verify --help'"),
        (["verify", "-q", "x.bin"], "unknown option '-q'", "see 'dfu verify --help'"),
        (["verify"], "missing argument <IMAGE>", "see 'dfu verify --help'"),
        (["verify", "x.bin", "--key"], "--key needs a value <PUB.pem>", "see 'dfu verify --help'"),
        (["verify", "x.bin", "--key", "--json"], "--key needs a value <PUB.pem>", "see 'dfu verify --help'"),
        (["verify", "x.bin", "--json=yes"], "--json does not take a value", "see 'dfu verify --help'"),
        (["verify", "a.bin", "b.bin"], "unexpected argument 'b.bin'", "see 'dfu verify --help'"),
        (["verify", ""], "IMAGE must not be empty", "see 'dfu verify --help'"),
        (["verify", "x.bin", "--key="], "--key needs a path to a PEM public key", "see 'dfu verify --help'"),
    ])
    func usageErrorExitsTwoWithMessageAndHelpPointer(arguments: [String], message: String, pointer: String) throws {
        let run = try DFURun.run(arguments)
        #expect(run.exitCode == 2)
        #expect(run.stderr.contains("dfu: error: \(message)\n"), "stderr: \(run.stderr)")
        #expect(run.stderr.hasSuffix("\(pointer)\n"), "stderr: \(run.stderr)")
        if !arguments.isEmpty { #expect(run.stdout.isEmpty) }
    }

    /// `validate()` runs before `run()`: a bad command line never touches the files it names.
    @Test func usageErrorIsReportedBeforeAnyFileIsRead() throws {
        let run = try DFURun.run(["verify", "does-not-exist.bin", "--key="])
        #expect(run.exitCode == 2)
        #expect(!run.stderr.contains("cannot read"))
    }

    @Test func doubleDashEndsOptions() throws {
        let run = try DFURun.run(["verify", "--", "--json"])
        #expect(run.exitCode == 3)
        #expect(run.stderr.contains("dfu: error: cannot read --json: no such file"))
        #expect(run.stdout.isEmpty)
    }

    @Test func optionValueCanFollowAnEqualsSign() throws {
        let spaced = try DFURun.run(["verify", "firmware-samples/images/blinky-ed25519-1.1.0.signed.bin",
                                     "--key", "firmware-samples/keys/TEST-ONLY-ed25519.pub.pem"])
        let joined = try DFURun.run(["verify", "--key=firmware-samples/keys/TEST-ONLY-ed25519.pub.pem",
                                     "firmware-samples/images/blinky-ed25519-1.1.0.signed.bin"])
        #expect(spaced.exitCode == 0 && joined.exitCode == 0)
        #expect(spaced.stdout == joined.stdout)
        #expect(joined.stdout.hasSuffix("OK: image verified\n"))
    }
}
