import BlueZTransport
import DFUCore
import Synchronization
import Transport

/// One read of `dfu info`: the device set up as `flash` sets it up (`DeviceTarget`), read through
/// the engine's `DeviceInfoReader`, released again. Warnings (a battery level that is not a
/// percentage) are printed on stderr as they come, or kept for the JSON object, which carries them
/// because `--json` leaves stderr empty.
struct InfoReading {
    var spec: DeviceSpec
    var adapter: String?
    var pairing: BlueZPairing
    var fullAddresses: Bool
    var connectTimeout: Duration
    /// Read the device with this protocol; nil: the one its services show.
    var updateProtocol: UpdateProtocolName?
    /// Keep warnings for the JSON object instead of printing them.
    var collectsWarnings: Bool

    /// What one read gave: the device's information or why not, the warnings kept for JSON,
    /// whether SIGINT or SIGTERM cancelled it (the connection was closed first), and for a serial
    /// port the endpoint read, as chosen (`SerialProtocolChoice` may add `raw`).
    struct Outcome {
        var result: Result<DeviceInfo, DFUError>
        var warnings: [String]
        var interrupted: Bool
        var serial: SerialEndpoint?
    }

    func read(_ console: Console) async -> Outcome {
        let warnings = WarningList()
        let collects = collectsWarnings
        let warn: @Sendable (String) -> Void = { message in
            if collects { warnings.append(message) } else { console.error("warning: \(message)") }
        }
        let reading = Task { () -> (Result<DeviceInfo, DFUError>, SerialEndpoint?) in
            await readDevice(log: { console.log($0) }, warn: warn)
        }
        let interruption = GracefulInterruption { reading.cancel() }
        let (result, serial) = await reading.value
        interruption.finish()
        return Outcome(result: result, warnings: warnings.all, interrupted: interruption.wasInterrupted, serial: serial)
    }

    /// Picks the protocol of a serial port that `--protocol` does not name, sets the device up,
    /// reads it, releases it.
    private func readDevice(log: @escaping @Sendable (String) -> Void,
                            warn: @escaping @Sendable (String) -> Void) async -> (Result<DeviceInfo, DFUError>, SerialEndpoint?) {
        var spec = spec
        var readProtocol = updateProtocol
        var serial: SerialEndpoint?
        if case .serial(let endpoint) = spec {
            serial = endpoint
            if updateProtocol == nil {
                do throws(DFUError) {
                    let deadline = ContinuousClock.now.advanced(by: connectTimeout)
                    if let choice = try await SerialProtocolChoice(endpoint: endpoint).choose(until: deadline, log: log) {
                        readProtocol = choice.protocolName
                        serial = choice.endpoint
                        spec = .serial(choice.endpoint)
                    }
                } catch {
                    return (.failure(error), serial)
                }
            }
        }
        let target: DeviceTarget
        do throws(DFUError) {
            target = try await DeviceTarget.make(spec, adapter: adapter, fullAddresses: fullAddresses, pairing: pairing,
                                                 speaking: readProtocol, log: log)
        } catch {
            return (.failure(error), serial)
        }
        var reader = DeviceInfoReader(target: target.target, connectTimeout: connectTimeout, clock: target.clock,
                                      updateProtocol: readProtocol)
        reader.serialRecovery = serial?.recovery ?? false
        let result: Result<DeviceInfo, DFUError>
        do throws(DFUError) {
            result = .success(try await reader.read(log: log, warn: warn))
        } catch {
            result = .failure(error)
        }
        await target.close()
        return (result, serial)
    }
}

/// Warnings gathered while the engine reads, from whatever task it reads in.
private final class WarningList: Sendable {
    private let list = Mutex<[String]>([])

    func append(_ message: String) { list.withLock { $0.append(message) } }

    var all: [String] { list.withLock { $0 } }
}
