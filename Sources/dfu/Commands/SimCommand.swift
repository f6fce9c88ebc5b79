import ArgumentParsing
import BlueZTransport
import DFUCore
import DeviceSim
import ExitCodes
import Transport

/// `dfu sim --serve udp:HOST:PORT | bluez:hciN [device options]`: the virtual device
/// (`--device sim`) as a long-running server, so smpclient, smpmgr, another `dfu` or any BLE
/// central can update it like a Zephyr device: over UDP, or as a BLE peripheral through
/// bluetoothd. The device options are the `sim:` keys as flags (`SimDeviceFlags`).
struct SimCommand: DFUCommand {
    static let name = "sim"
    static let abstract = "Serve the virtual device over UDP or BLE for others to update."
    static let discussion = """
        The device is the one '--device sim:KEY=VALUE,…' builds (a Zephyr application with MCUmgr on \
        MCUboot, two slots). Its slots, upload session and boots last as long as the server, so \
        several clients can talk to it in turn.

        udp:HOST:PORT serves one SMP packet per datagram, as Zephyr's UDP transport does. When ready \
        it prints 'dfu sim: serving SMP over UDP on HOST:PORT (device ID, version V)', with the port \
        the system chose for port 0. smpclient and smpmgr always use port 1337: run several servers \
        on 127.0.0.2, 127.0.0.3, …

        serial:PATH makes a pseudo-terminal, links PATH to it and serves SMP on it as Zephyr's UART \
        transport does, so 'dfu flash --device serial:PATH', smpmgr or any serial SMP client can \
        use it. Options after PATH, comma-separated: baud=N (the modelled line rate, default \
        115200: bytes take 10 bits of line time each way), raw (raw SMP packets instead of the \
        console framing), noise[=N] (a log line every N replies, default 5), usb (the port \
        vanishes while the device resets and comes back at PATH, as a USB CDC ACM port does), \
        garble=N (every N-th reply garbled on the wire), recovery (the device powers up in \
        MCUboot's serial recovery, as if its recovery button were held: image list, upload \
        straight into the primary slot, reset), app-silent (the application answers nothing on \
        the line). The application's 'os reset' with boot_mode 1 also reboots into the serial \
        recovery; after the recovery's reset MCUboot starts the image in the primary slot if it \
        validates, else stays in recovery. When ready it prints 'dfu sim: serving SMP on serial \
        PATH (/dev/pts/N, BAUD baud, FRAMING framing[, MCUboot serial recovery]) (device ID, \
        version V)'.

        bluez:hciN registers the device with bluetoothd as a GATT application (the SMP service, \
        Battery, Device Information) on adapter hciN and advertises it, connectable, with the SMP \
        service UUID and a name (--name; default dfu-sim- and the end of the device ID). When ready \
        it prints 'dfu sim: serving SMP over BLE on hciN as NAME (address ADDR, device ID, version \
        V)'. A reset drops the link and stops advertising until the device is up again. The MTU \
        is the one the central and bluetoothd agree on, printed at the central's first request; \
        notifications carry MTU - 5 bytes (what bluetoothd sends a BlueZ central), at most 510. \
        bluetoothd up to 5.68 drops written values over 510 bytes, so at its default MTU of 517 a \
        client that fills the MTU (smpclient, nRF Connect) never gets an answer: the MTU line then \
        warns, and ExchangeMTU=498 in the [GATT] section of /etc/bluetooth/main.conf fixes it. \
        Needs a powered LE adapter, and root or membership of the 'bluetooth' group (bluetoothd's D-Bus policy). --mtu, --phy and --interval only shape the \
        in-process link (--device sim) and the device ID here.

        --protocol nordic serves an nRF52 with the nRF5 SDK's secure bootloader instead, over BLE or \
        on a serial line. Over BLE its application advertises the Nordic DFU service (0xFE59) with \
        buttonless DFU, Battery and Device Information; a buttonless request resets it into the bootloader, which advertises \
        at the same address as DfuTarg (or the name the central set) with the Control Point and \
        Packet characteristics, and after the update (or an abort, or --inactivity) the new \
        application comes back. On real hardware the bootloader takes the address + 1; an \
        adapter cannot change its address, so here it keeps it (dfu looks at both), or it takes \
        another adapter's (--bootloader-adapter), where only its name finds it. --chip, --sdk, \
        --hw, --sd, --inactivity, --prn-drop and --drop shape the bootloader, --cp-fault damages its \
        answers; --key is its public key. \
        On serial:PATH[,baud=N][,usb] it is the bootloader's serial DFU (SLIP frames, as 'nrfutil dfu \
        serial' speaks it), in DFU mode from the start: MTU 131 as over a UART, or 2051 with usb, \
        whose port also vanishes while the device resets; after the update the new application runs \
        and reads nothing on the line.

        Either way it then prints one line per connection, upload, reset, boot and injected fault \
        (--verbose adds every packet in and out on stderr).

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
        """

    @Option(valueName: "udp:HOST:PORT|serial:PATH|bluez:hciN",
            help: "Where to serve: udp:127.0.0.1:1337 or udp:[::1]:1337 (port 0 picks a free port), serial:/tmp/ttyDFU[,OPTIONS] (a pseudo-terminal linked at that path; OPTIONS: baud=N, raw, noise[=N], usb, garble=N, recovery, app-silent), or bluez:hci0 to be a BLE peripheral on that adapter.")
    var serve: String

    @Option(valueName: "NAME", help: "The name to advertise with bluez: (at most 29 bytes). (default: dfu-sim- and the last 4 characters of the device ID)")
    var name: String?

    @Option(valueName: "hciN", help: "With --protocol nordic: serve the bootloader on this other adapter, at its address, as a bootloader whose address no rule derives from the application's (an application with a resolvable private address); dfu then finds it by name.")
    var bootloaderAdapter: String?

    @Option(valueName: "SECONDS", help: "With bluez:, start advertising again every SECONDS while no central is connected, for a controller that reports an advertiser only when its advertising or a scan starts (btvirt, on the BlueZ test rig); a radio needs none. (default: off)")
    var readvertise: Double?

    @Option(valueName: "LEVEL",
            help: "With bluez:, what the SMP characteristic requires of a central's link: open, encrypt or authen (an authenticated link, Zephyr's default with Bluetooth pairing; needs --passkey). (default: open)")
    var security: String?

    @Option(valueName: "N", help: "With --security, the device's fixed six-digit passkey (000000-999999); the sim's own agent enters it. Never printed.")
    var passkey: Passkey?

    @Flag(help: "Show central and adapter addresses in full; they are shortened (…:EE:FF) by default.")
    var fullAddresses = false

    @Flag(short: "v", help: "Also log every packet in and out, and requests the device dropped, on stderr.")
    var verbose = false

    @OptionGroup(title: "VIRTUAL DEVICE OPTIONS (the sim:KEY=VALUE keys as flags)")
    var device = SimDeviceFlags()

    func validate() throws(UsageError) {
        let target = try ServeTarget(parsing: serve)
        if let name {
            guard case .bluez = target else { throw UsageError("--name is for --serve bluez:hciN (a UDP server has no name)") }
            if let problem = BlueZPeripheral<SMPPeripheralModel>.problem(withName: name) { throw UsageError("invalid --name: \(problem)") }
        }
        _ = try pairing(for: target)
        if let readvertise {
            guard case .bluez = target else { throw UsageError("--readvertise is for --serve bluez:hciN (a UDP server does not advertise)") }
            guard readvertise.isFinite, readvertise >= 0.5, readvertise <= 3600 else {
                throw UsageError("invalid --readvertise \(readvertise): give seconds from 0.5 to 3600")
            }
        }
        let options = try device.options()
        if let bootloaderAdapter {
            guard options.simProtocol == .nordic, case .bluez(let adapter) = target else {
                throw UsageError("--bootloader-adapter is for --protocol nordic with --serve bluez:hciN")
            }
            guard bootloaderAdapter.hasPrefix("hci"), Int(bootloaderAdapter.dropFirst(3)) != nil, bootloaderAdapter != adapter else {
                throw UsageError("--bootloader-adapter takes another adapter than --serve's, such as hci2")
            }
        }
        if options.simProtocol == .nordic {
            switch target {
            case .bluez:
                break
            case .serial(let spec):
                // The bootloader's serial DFU is SLIP: Zephyr's framings and its log lines are SMP's.
                guard spec.options.framing == .console, spec.options.noiseEvery == nil, spec.options.garbleEvery == nil else {
                    throw UsageError("raw, noise and garble apply to the SMP device; the Nordic device (--protocol nordic) "
                                     + "speaks the nRF5 bootloader's SLIP framing on serial:PATH[,baud=N][,usb]")
                }
                guard !spec.options.startsInRecovery, !spec.options.applicationSilent else {
                    throw UsageError("recovery and app-silent apply to the SMP device (MCUboot's serial recovery); the Nordic "
                                     + "device (--protocol nordic) is in its bootloader's DFU mode from the start")
                }
            case .udp:
                throw UsageError("the Nordic device (--protocol nordic) is served over BLE (--serve bluez:hciN) or a serial "
                                 + "line (--serve serial:PATH); in process: dfu flash PKG.zip --device sim:protocol=nordic")
            }
            guard security == nil, passkey == nil else {
                throw UsageError("--security and --passkey are for the SMP device; the Nordic device serves an open link")
            }
            do throws(SimOptionsError) {
                _ = try options.makeNordicDevice()
            } catch {
                throw device.usageError(error)
            }
            return
        }
        // Building the device reads the key and checks the options fit together (the slot holds the
        // running image), so every option problem is a usage error before anything is bound.
        let built: VirtualDevice
        do throws(SimOptionsError) {
            built = try options.makeDevice(framing: target.framing)
        } catch {
            throw device.usageError(error)
        }
        if case .serial(let spec) = target, spec.options.startsInRecovery,
           let problem = SerialVirtualDevice.recoveryProblem(for: built) {
            throw UsageError("invalid --serve 'serial:…,recovery': \(problem)")
        }
    }

    func run(_ console: Console) async throws(DFUError) -> ExitStatus {
        let console = console.verbose(verbose)
        let target: ServeTarget
        let options: SimOptions
        do throws(UsageError) {
            target = try ServeTarget(parsing: serve)
            options = try device.options()
        } catch {
            throw .usage(error.message)
        }
        // From here a signal stops the server instead of ending dfu with 130: for a server, being
        // told to stop is how a run ends well.
        let stopSignals = StopSignals.install()
        switch target {
        case .udp(let address):
            return try await serveUDP(options, at: address, console: console, signals: stopSignals)
        case .serial(let spec):
            return try await serveSerial(options, on: spec, console: console, signals: stopSignals)
        case .bluez(let adapter):
            let pairing: PeripheralSecurity.Pairing
            do throws(UsageError) { pairing = try self.pairing(for: target) } catch { throw .usage(error.message) }
            if options.simProtocol == .nordic {
                return try await serveNordicBlueZ(options, adapter: adapter, bootloaderAdapter: bootloaderAdapter,
                                                  console: console, signals: stopSignals)
            }
            return try await serveBlueZ(options, adapter: adapter, pairing: pairing, console: console, signals: stopSignals)
        }
    }
}

private extension ServeTarget {
    /// UDP carries one packet per datagram; BLE keeps the `reassembly` option's framing.
    var framing: SMPServerConfiguration.Framing? {
        if case .udp = self { return .datagram }
        return nil
    }
}
