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

    /// `interrupted`: a SIGINT or SIGTERM cancelled the read; the connection was closed first.
    func read(_ console: Console) async -> (result: Result<DeviceInfo, DFUError>, warnings: [String], interrupted: Bool) {
        let warnings = WarningList()
        let collects = collectsWarnings
        let warn: @Sendable (String) -> Void = { message in
            if collects { warnings.append(message) } else { console.error("warning: \(message)") }
        }
        let target: DeviceTarget
        do throws(DFUError) {
            target = try await DeviceTarget.make(spec, adapter: adapter, fullAddresses: fullAddresses, pairing: pairing,
                                                 log: { console.log($0) })
        } catch {
            return (.failure(error), warnings.all, false)
        }
        let reader = DeviceInfoReader(target: target.target, connectTimeout: connectTimeout, clock: target.clock,
                                      updateProtocol: updateProtocol)
        let reading = Task { () -> Result<DeviceInfo, DFUError> in
            do throws(DFUError) {
                return .success(try await reader.read(log: { console.log($0) }, warn: warn))
            } catch {
                return .failure(error)
            }
        }
        let interruption = GracefulInterruption { reading.cancel() }
        let result = await reading.value
        await target.close()
        interruption.finish()
        return (result, warnings.all, interruption.wasInterrupted)
    }
}

/// Warnings gathered while the engine reads, from whatever task it reads in.
private final class WarningList: Sendable {
    private let list = Mutex<[String]>([])

    func append(_ message: String) { list.withLock { $0.append(message) } }

    var all: [String] { list.withLock { $0 } }
}
