import ArgumentParsing
import DFUCore
import ExitCodes

/// One everyday SMP operation from the command line (`dfu image …`, `dfu reset`, `dfu echo`): the
/// device set up as `flash` sets it up (`DeviceTarget`: the same `--device` forms, adapter and
/// pairing), an `SMPOperator` on it, and the first SIGINT or SIGTERM closing the connection before
/// dfu ends with 130, as `info` does. Events other than the result go to `observe`; logs (and, with
/// `--json`, warnings) go to stderr with `--verbose`.
struct SMPOperationRun {
    var target: DeviceOptions
    var security: PairingOptions
    var deadlines: UpdateOptions.Deadlines
    var common: CommonOptions

    /// How the operation ended, and how output names the device.
    struct Outcome<Value: Sendable>: Sendable {
        var result: Result<Value, DFUError>
        var device: String
        /// The device in full, as `--device` takes it (the virtual device's full address): JSON records.
        var identity: String
        /// A SIGINT or SIGTERM cancelled it; the connection was closed first.
        var interrupted: Bool
    }

    func run<Value: Sendable>(_ console: Console, observe: @escaping @Sendable (UpdateEvent) -> Void = { _ in },
                              _ operation: @escaping @Sendable (SMPOperator) async throws(DFUError) -> Value)
        async -> Outcome<Value> {
        let console = console.verbose(common.verbose)
        let json = common.json
        let spec: DeviceSpec
        do throws(UsageError) { spec = try target.spec } catch {
            return Outcome(result: .failure(.usage(error.message)), device: target.displayName, identity: target.recordName,
                           interrupted: false)
        }
        let deviceTarget: DeviceTarget
        do throws(DFUError) {
            deviceTarget = try await DeviceTarget.make(spec, adapter: target.bluetooth.adapter,
                                                       fullAddresses: target.bluetooth.fullAddresses,
                                                       pairing: security.pairing(), log: { console.log($0) })
        } catch {
            return Outcome(result: .failure(error), device: target.displayName, identity: spec.description, interrupted: false)
        }
        let device = SMPOperator(target: deviceTarget.target, deadlines: deadlines, clock: deviceTarget.clock) { event in
            switch event {
            case .log(let message): console.log(message)
            // --json keeps stderr for --verbose only.
            case .warning(let message): if json { console.log(message) } else { console.error("warning: " + message) }
            default: observe(event)
            }
        }
        let work = Task { () -> Result<Value, DFUError> in
            do throws(DFUError) {
                return .success(try await operation(device))
            } catch {
                return .failure(error)
            }
        }
        let interruption = GracefulInterruption { work.cancel() }
        let result = await work.value
        await deviceTarget.close()
        interruption.finish()
        return Outcome(result: result, device: device.device, identity: deviceTarget.target.peer.rawValue,
                       interrupted: interruption.wasInterrupted)
    }
}
