import BlueZTransport
import DFUCore
import DeviceSim
import Transport
import UDPTransport

/// The device a command talks to (`flash`, `info`), ready for the engine: a connector, the peer to
/// ask it for, how output names it, the clock the run measures with, and what must stay open while
/// the run lasts.
///
/// - `sim[:…]`: the virtual device (`DeviceSim`) served in this process over the memory link, with
///   the link profile its options give (`mtu`, `phy`, `interval`). Real time by default: the run
///   is what the same update would look like on such a link. `timescale=0.05` runs the model 20
///   times faster (deadlines and rates stay in model time); `timescale=0` runs it unpaced (as fast
///   as the machine goes; deadlines then are real time, so they keep meaning).
/// - `udp:HOST:PORT`: an SMP server over UDP (one SMP packet per datagram).
/// - `AA:BB:CC:DD:EE:FF`, `name:NAME`: a Bluetooth LE device through BlueZ on `--adapter` (default:
///   the first powered adapter). The connector rediscovers the device by its SMP service when it
///   comes back under another address after a reboot.
struct DeviceTarget {
    let target: UpdateEngine.Target
    let clock: EngineClock
    /// Whether this computer's power source matters: not for the in-process virtual device, which
    /// nothing can brick.
    let checksHostPower: Bool
    /// What the run keeps open: the in-process device, or the adapter's bus connection.
    let resource: Resource

    enum Resource {
        case none
        case simulator(VirtualPeripheral)
        case nordicSimulator(VirtualNordicPeripheral)
        case bluez(LazyBlueZConnector)
    }

    /// `log` gets the BlueZ connector's diagnostic lines (connect retries, rediscovery).
    /// `pairing`: how a Bluetooth device that demands a secure link is paired (`PairingOptions`).
    /// `connectGate`: runs that share one adapter set up one connection at a time (`dfu batch`).
    /// `speaking`: the protocol of the update file, which frames a serial line (SMP when nil).
    static func make(_ spec: DeviceSpec, adapter: String?, fullAddresses: Bool, pairing: BlueZPairing = .none,
                     connectGate: BlueZConnectGate? = nil, speaking: UpdateProtocolName? = nil,
                     log: @escaping @Sendable (String) -> Void) async throws(DFUError) -> DeviceTarget {
        switch spec {
        case .simulator(let text):
            return try await simulator(text.isEmpty ? "sim" : "sim:" + text, fullAddresses: fullAddresses)
        case .udp(let endpoint):
            let target = UpdateEngine.Target(connector: UDPConnector(presenting: .smp), peer: PeerIdentity("udp:" + endpoint.description),
                                             label: "udp:" + endpoint.description, speaks: .smp)
            return DeviceTarget(target: target, clock: .continuous, checksHostPower: true, resource: .none)
        case .serial(let endpoint):
            return try serial(endpoint, speaking: speaking ?? .smp, log: log)
        case .address, .name:
            return try await bluetooth(spec, adapter: adapter, fullAddresses: fullAddresses, pairing: pairing,
                                       connectGate: connectGate, log: log)
        }
    }

    /// Releases what the run kept open. Call once, after the run ended.
    func close() async {
        switch resource {
        case .none: break
        case .simulator(let peripheral): withExtendedLifetime(peripheral) {}
        case .nordicSimulator(let peripheral): withExtendedLifetime(peripheral) {}
        case .bluez(let connector): await connector.close()
        }
    }

    private static func bluetooth(_ spec: DeviceSpec, adapter: String?, fullAddresses: Bool, pairing: BlueZPairing,
                                  connectGate: BlueZConnectGate?,
                                  log: @escaping @Sendable (String) -> Void) async throws(DFUError) -> DeviceTarget {
        // BlueZ is opened at the first connect, after the image check (LazyBlueZConnector).
        let connector = LazyBlueZConnector(adapter: adapter, pairing: pairing, connectGate: connectGate, log: log)
        // The canonical text is what the connector takes: "AA:BB:CC:DD:EE:FF" or "name:NAME".
        let target = UpdateEngine.Target(connector: connector, peer: PeerIdentity(spec.description),
                                         label: spec.displayName(fullAddresses: fullAddresses))
        return DeviceTarget(target: target, clock: .continuous, checksHostPower: true, resource: .bluez(connector))
    }

    private static func simulator(_ text: String, fullAddresses: Bool) async throws(DFUError) -> DeviceTarget {
        let options: SimOptions
        do throws(SimOptionsError) {
            options = try SimOptions.parse(text)
        } catch {
            throw .usage("invalid --device '\(text)': \(error)")
        }
        let linkClock = options.timeScale == 1 ? LinkClock.realTime() : (LinkClock(timeScale: options.timeScale) ?? .realTime())
        let connector = MemoryConnector(clock: linkClock)
        // An unpaced model clock's sleeps return at once: deadlines must be real time then.
        let clock = options.timeScale == 0 || options.timeScale == 1 ? EngineClock.continuous : EngineClock(linkClock)
        if options.simProtocol == .nordic {
            return try await nordicSimulator(options, text: text, connector: connector, clock: clock, fullAddresses: fullAddresses)
        }
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
                                         flashRate: flashRate.isFinite ? flashRate : nil, speaks: .smp)
        return DeviceTarget(target: target, clock: clock, checksHostPower: false, resource: .simulator(peripheral))
    }

    /// `sim:protocol=nordic,…`: the virtual nRF52 running its application (buttonless DFU); its
    /// bootloader answers at the address + 1 once asked to.
    private static func nordicSimulator(_ options: SimOptions, text: String, connector: MemoryConnector, clock: EngineClock,
                                        fullAddresses: Bool) async throws(DFUError) -> DeviceTarget {
        let peripheral: VirtualNordicPeripheral
        do throws(SimOptionsError) {
            peripheral = try await VirtualNordicPeripheral.serve(options, on: connector)
        } catch {
            throw .usage("invalid --device '\(text)': \(error)")
        }
        let identity = peripheral.applicationIdentity
        let target = UpdateEngine.Target(connector: connector, peer: identity,
                                         label: fullAddresses ? identity.rawValue : identity.redacted, speaks: .nordic)
        return DeviceTarget(target: target, clock: clock, checksHostPower: false, resource: .nordicSimulator(peripheral))
    }
}
