import DFUCore
import DeviceSim
import Transport

/// The device `dfu flash` updates, ready for the engine: a connector, the peer to ask it for, how
/// output names it, and the clock the run measures with.
///
/// - `sim[:…]`: the virtual device (`DeviceSim`) served in this process over the memory link, with
///   the link profile its options give (`mtu`, `phy`, `interval`). Real time by default: the run
///   is what the same update would look like on such a link. `timescale=0.05` runs the model 20
///   times faster (deadlines and rates stay in model time); `timescale=0` runs it unpaced (as fast
///   as the machine goes; deadlines then are real time, so they keep meaning).
/// - `udp:HOST:PORT`: an SMP server over UDP (one SMP packet per datagram).
/// Bluetooth addresses and names are refused before this (`FlashCommand.validate`).
struct FlashTarget {
    let target: UpdateEngine.Target
    let clock: EngineClock
    /// Whether this computer's power source matters: not for the in-process virtual device, which
    /// nothing can brick.
    let checksHostPower: Bool
    /// The in-process device, kept for the length of the run.
    let simulator: VirtualPeripheral?

    static func make(_ spec: DeviceSpec, fullAddresses: Bool) async throws(DFUError) -> FlashTarget {
        switch spec {
        case .simulator(let text):
            return try await simulator(text.isEmpty ? "sim" : "sim:" + text, fullAddresses: fullAddresses)
        case .udp(let endpoint):
            let target = UpdateEngine.Target(connector: UDPConnector(), peer: PeerIdentity("udp:" + endpoint.description),
                                             label: "udp:" + endpoint.description)
            return FlashTarget(target: target, clock: .continuous, checksHostPower: true, simulator: nil)
        case .address, .name:
            throw .usage(FlashCommand.bluetoothNotBuilt(spec))
        }
    }

    private static func simulator(_ text: String, fullAddresses: Bool) async throws(DFUError) -> FlashTarget {
        let options: SimOptions
        do throws(SimOptionsError) {
            options = try SimOptions.parse(text)
        } catch {
            throw .usage("invalid --device '\(text)': \(error)")
        }
        let linkClock = options.timeScale == 1 ? LinkClock.realTime() : (LinkClock(timeScale: options.timeScale) ?? .realTime())
        let connector = MemoryConnector(clock: linkClock)
        let peripheral: VirtualPeripheral
        do throws(SimOptionsError) {
            peripheral = try await VirtualPeripheral.serve(options, on: connector)
        } catch {
            throw .usage("invalid --device '\(text)': \(error)")
        }
        let flashRate = await peripheral.snapshot.server.bootloader.secondary.timing.writeBytesPerSecond
        let identity = peripheral.identity
        let target = UpdateEngine.Target(connector: connector, peer: identity,
                                         label: fullAddresses ? identity.rawValue : identity.redacted,
                                         flashRate: flashRate.isFinite ? flashRate : nil)
        // An unpaced model clock's sleeps return at once: deadlines must be real time then.
        let clock = options.timeScale == 0 || options.timeScale == 1 ? EngineClock.continuous : EngineClock(linkClock)
        return FlashTarget(target: target, clock: clock, checksHostPower: false, simulator: peripheral)
    }
}
