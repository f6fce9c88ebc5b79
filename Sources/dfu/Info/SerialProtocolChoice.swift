import DFUCore
import SerialTransport
import Transport

/// Which protocol `dfu info --device serial:PATH` reads a port with when `--protocol` names none.
/// A serial port shows no services to choose by, as a Bluetooth device does, so the port is asked
/// as `dfu scan --serial` asks it (`SerialProber`: an SMP echo in the console framing, then as a
/// raw packet, then a Nordic DFU ping), round after round until one is answered or the connect
/// deadline passes; the first answer names the protocol, as mcumgr would find SMP and nrfutil
/// its bootloader there. With `,raw` the console question is left out (a raw device would hold
/// its bytes as a packet's start); an SMP device that answers only in raw framing is read so,
/// and the device line says `,raw`.
///
/// A port that cannot be opened, or goes away while asked, is left to the connect that follows,
/// which waits for a busy or re-enumerating port and words its failure.
struct SerialProtocolChoice {
    var endpoint: SerialEndpoint
    /// How long each question waits: an answer at 115200 baud takes milliseconds, and a round
    /// missed on a busy machine is asked again.
    var probeTimeout: Duration = .milliseconds(500)

    struct Choice {
        var protocolName: UpdateProtocolName
        /// The endpoint to read with: `raw` added when only the raw question was answered.
        var endpoint: SerialEndpoint
    }

    /// Nil: the port could not be asked; read it as SMP, as before there was a choice.
    func choose(until deadline: ContinuousClock.Instant, log: @escaping @Sendable (String) -> Void) async throws(DFUError) -> Choice? {
        let settings: SerialPortSettings
        do throws(SerialPortError) {
            settings = try SerialPortSettings(baud: endpoint.baud, hardwareFlowControl: endpoint.hardwareFlowControl)
        } catch {
            throw .usage("invalid --device 'serial:\(endpoint.description)': \(error)")
        }
        let link: SerialLink
        do throws(SerialPortError) {
            link = try SerialLink.open(endpoint.path, presenting: .smp, settings: settings)
        } catch {
            log("serial:\(endpoint.path): not asked what it speaks: \(error)")
            return nil
        }
        // Closed before the connect that follows opens the port again: it is opened exclusively.
        let outcome = await ask(link, until: deadline, log: log)
        await link.disconnect()
        return try outcome.get()
    }

    private func ask(_ link: SerialLink, until deadline: ContinuousClock.Instant,
                     log: @escaping @Sendable (String) -> Void) async -> Result<Choice?, DFUError> {
        let probes = ProtocolRegistry.serialProbes.filter { !endpoint.raw || $0.protocolName != .smp || $0.deviceOptions.contains("raw") }
        let prober = SerialProber(probes: probes, timeout: probeTimeout)
        let path = endpoint.path
        while true {
            switch await prober.run(on: link, characteristic: SMPGATT.characteristic, log: { log("serial:\(path): \($0)") }) {
            case .answered(let probe):
                log("serial:\(path): \(probe.label) answered; reading it as \(probe.protocolName)")
                var endpoint = endpoint
                if probe.deviceOptions.contains("raw") { endpoint.raw = true }
                return .success(Choice(protocolName: probe.protocolName, endpoint: endpoint))
            case .lost(let reason):
                log("serial:\(path): \(reason)")
                return .success(nil)
            case .silent:
                if Task.isCancelled {
                    return .failure(.deviceUnreachable("interrupted while asking serial:\(path) what it speaks.", cause: .link(.cancelled)))
                }
                guard ContinuousClock.now < deadline else { return .failure(silence(probes)) }
            }
        }
    }

    private func silence(_ probes: [SerialProbe]) -> DFUError {
        let asked = probes.map(\.label).joined(separator: ", ")
        return .deviceUnreachable(
            "nothing on serial:\(endpoint.path) answered (asked \(asked) at \(endpoint.baud) baud until the connect timeout). "
                + "Check that the device runs SMP on this port, or its nRF5 serial bootloader in DFU mode, and the baud rate "
                + "(serial:PATH,baud=N); or name the protocol with --protocol smp or --protocol nordic.",
            cause: .link(.timeout))
    }
}
