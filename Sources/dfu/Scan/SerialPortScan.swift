import DFUCore
import SerialTransport
import Transport

/// `dfu scan --serial`: the ports `SerialPortInventory` lists, each asked what it speaks
/// (`SerialProber`), all ports at once so the scan takes as long as the slowest port (at most one
/// timeout per probe) whatever their number. Results come in the inventory's order.
struct SerialPortScan: Sendable {
    var inventory: SerialPortInventory
    var settings: SerialPortSettings
    /// Nil: list the ports without opening them (`--no-probe`).
    var prober: SerialProber?
    var log: @Sendable (String) -> Void = { _ in }

    /// The environment variable that points the inventory at a fake tree (`ROOT/dev`, `ROOT/sys`):
    /// for dfu's own tests, not for users, so it is documented nowhere else.
    static let rootVariable = "DFU_TEST_SERIAL_ROOT"

    /// The inventory of this computer, or of the fake tree `environment` names.
    static func inventory(environment: [String: String]) -> SerialPortInventory {
        guard let root = environment[rootVariable], root.hasPrefix("/") else { return SerialPortInventory() }
        return SerialPortInventory(devRoot: root + "/dev", sysRoot: root + "/sys")
    }

    func run() async -> [SerialPortFinding] {
        let ports = inventory.ports()
        log("\(ports.count) serial " + (ports.count == 1 ? "port" : "ports") + " in \(inventory.devRoot)")
        guard let prober else { return ports.map { SerialPortFinding(port: $0, answer: .notProbed, baud: settings.baud) } }
        var answers = [SerialPortAnswer](repeating: .notProbed, count: ports.count)
        await withTaskGroup(of: (Int, SerialPortAnswer).self) { group in
            for (index, port) in ports.enumerated() {
                group.addTask { (index, await probe(port, with: prober)) }
            }
            for await (index, answer) in group { answers[index] = answer }
        }
        return zip(ports, answers).map { SerialPortFinding(port: $0, answer: $1, baud: settings.baud) }
    }

    /// Opens the port by the path a user would give (its by-id link when it has one), asks it, and
    /// closes it.
    private func probe(_ port: SerialPortInfo, with prober: SerialProber) async -> SerialPortAnswer {
        let path = port.peerPath
        let link: SerialLink
        do throws(SerialPortError) {
            // The port's bytes shown as SMP's characteristic, as `--device serial:` opens it; the
            // probes frame what they send themselves.
            link = try SerialLink.open(path, presenting: .smp, settings: settings)
        } catch {
            log("\(path): \(error)")
            return SerialPortAnswer(error)
        }
        let log = self.log
        let outcome = await prober.run(on: link, characteristic: SMPGATT.characteristic) { log("\(path): \($0)") }
        await link.disconnect()
        switch outcome {
        case .answered(let probe):
            log("\(path): \(probe.label) answered")
            return .answered(probe)
        case .silent:
            log("\(path): no answer")
            return .silent
        case .lost(let reason):
            log("\(path): \(reason)")
            return .unusable(column: "went away while probed", reason: reason)
        }
    }
}
