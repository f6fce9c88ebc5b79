import ArgumentParsing
import DFUCore
import ExitCodes

/// `dfu info --device DEVICE`: what a device reports about itself, read the way `dfu flash` reads
/// it before an update (`DeviceInfoReader`), without changing anything on it.
struct InfoCommand: DFUCommand {
    static let name = "info"
    static let abstract = "Show what a device reports: image slots or DFU state, battery, MTU."
    static let discussion = """
        Connects as 'dfu flash' does and reads, without changing anything: the link (ATT MTU, \
        largest write, and PHY and connection interval where the transport knows them; BlueZ does \
        not report them; over a serial port the port, baud rate, framing and packet size \
        instead), the MCUmgr parameters (buffer size and count: the upload window), every \
        image slot with its version, hash and state (running, pending for the next reset, \
        confirmed), the slot size, the bootloader mode, the Battery Service level and the Device \
        Information firmware revision, and over BlueZ whether the link is paired, bonded, \
        encrypted and authenticated. What the device does not report is shown as such.

        A Nordic Secure DFU device (found by its services, or with --protocol nordic) is shown as \
        a bootloader, with what its init packet and firmware objects hold (how far an interrupted \
        update got; Select changes nothing), or as an application with buttonless DFU; \
        --protocol smp reads a device that offers both as SMP (the default then).

        A serial port shows no services: without --protocol it is asked as 'dfu scan --serial' \
        asks (an SMP echo in the console framing, then raw, then a Nordic DFU ping) until one \
        answers or --connect-timeout passes. An nRF5 SDK serial bootloader is shown with its \
        MTU, DFU protocol version, chip and images (bootloader, SoftDevice, application) and \
        what its objects hold.

        Devices as for 'dfu flash': a Bluetooth address or name:NAME through BlueZ ('dfu scan' \
        lists them), sim[:KEY=VALUE,…] for the built-in virtual device, udp:HOST:PORT for an SMP \
        server over UDP, serial:PATH[,baud=N][,raw][,rtscts] for a serial port.

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
        """

    var wait = ConnectTimeoutOption()

    @Option(name: "protocol", valueName: "NAME", help: "Read the device with this protocol: smp or nordic (default: the one its services show, or that answers on a serial port).")
    var updateProtocol: UpdateProtocolName?

    var common = CommonOptions(json: .result)

    @OptionGroup(title: "DEVICE OPTIONS")
    var target = DeviceOptions()

    @OptionGroup(title: "PAIRING OPTIONS")
    var security = PairingOptions()

    func validate() throws(UsageError) {
        try target.validate()
        try security.validate(for: try target.spec)
        try wait.validate()
    }

    func run(_ console: Console) async throws(DFUError) -> ExitStatus {
        let console = console.verbose(common.verbose)
        let spec: DeviceSpec
        do throws(UsageError) { spec = try target.spec } catch { throw .usage(error.message) }
        let reading = InfoReading(spec: spec, adapter: target.bluetooth.adapter,
                                  pairing: security.pairing(),
                                  fullAddresses: target.bluetooth.fullAddresses,
                                  connectTimeout: wait.duration, updateProtocol: updateProtocol,
                                  collectsWarnings: common.json)
        let outcome = await reading.read(console)
        if outcome.interrupted {
            console.error(GracefulInterruption.message)
            return .interrupted
        }
        let result = outcome.result
        if common.json {
            // A record names the device in full: the engine's identity once connected (the virtual
            // device's address), else --device as given.
            let device = (try? result.get().connection.identity) ?? spec.description
            console.out(InfoOutput.json(device: device, result, serial: outcome.serial, warnings: outcome.warnings).encoded)
            if case .failure(let error) = result { return error.exitStatus }
            return .success
        }
        switch result {
        case .failure(let error):
            throw error
        case .success(let info):
            console.out(InfoOutput.table(info, serial: outcome.serial))
            return .success
        }
    }
}
