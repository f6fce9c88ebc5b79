import BlueZStandIn
import BlueZTransport
import DFUCore
import DeviceSim
import Transport

/// The `bluez` link: the run's virtual device behind the BlueZ stand-in on a private dbus-daemon
/// of its own, reached by the BlueZ central `dfu flash AA:BB:…` uses (`BlueZCentral` on that
/// bus, its connector expecting the services dfu updates through). Real: the client's D-Bus code,
/// libdbus, the bus daemon, the `AcquireWrite`/`AcquireNotify` sockets. Modelled: bluetoothd
/// (the stand-in) and the radio (the memory link on the run's model clock).
extension ServedDevice {
    /// `movesAfterReboot`: after its first reset the device advertises under `movedAddress`.
    static func bluez(_ options: SimOptions, memory connector: MemoryConnector, scenario: String,
                      movesAfterReboot: Bool) async throws(FaultsError) -> ServedDevice {
        let peripheral: VirtualPeripheral
        do throws(SimOptionsError) {
            peripheral = try await VirtualPeripheral.serve(options, on: connector)
        } catch {
            throw SimSetup.serveFailed(scenario, error)
        }
        var device = BlueZBus.device(peripheral.identity, name: "dfu-faults", services: [DeviceGATT.smpService], on: connector)
        if movesAfterReboot { device.addressAfterReboot = movedAddress(peripheral.identity).rawValue }
        let bus = try await BlueZBus.serve([device], scenario: scenario)
        return ServedDevice(connector: bus.connector, peer: peripheral.identity,
                            snapshot: { await peripheral.snapshot },
                            stop: {
                                await bus.stop()
                                withExtendedLifetime(peripheral) {}
                            },
                            setBattery: { await peripheral.setBatteryLevel($0) })
    }

    /// Where a device that moves comes back: a random static address derived from its first one,
    /// related to it by no rule a central could apply.
    static func movedAddress(_ identity: PeerIdentity) -> PeerIdentity {
        .derived(from: "after the reset of " + identity.rawValue)
    }
}

/// A private dbus-daemon, the stand-in bluetoothd on it hearing the run's devices, and the BlueZ
/// central on that bus. A fresh one per run: starting it costs tens of milliseconds beside a
/// run's half second or more, and no bus, stand-in or central state can leak into the next run.
struct BlueZBus: Sendable {
    /// The connector `dfu flash` makes over BlueZ: expecting SMP or Nordic DFU, writes capped for
    /// BlueZ peers, no pairing agent.
    let connector: BlueZConnector
    private let daemon: PrivateDBusDaemon
    private let standIn: BlueZStandIn
    private let central: BlueZCentral

    /// How the stand-in hears a memory-link device: under its identity, an address-shaped text
    /// (a random static address), as `dfu flash --device` would name it, only while the device
    /// model advertises there, and under the name the model advertises, when it gives one (a
    /// Nordic bootloader's name set through buttonless DFU), else `name`.
    static func device(_ peer: PeerIdentity, name: String, services: [ServiceID],
                       on connector: MemoryConnector) -> BlueZStandInDevice {
        var device = BlueZStandInDevice(address: peer.rawValue,
                                        advertisement: BlueZStandInAdvertisement(name: name, services: services, rssi: -50),
                                        connector: connector, peer: peer)
        device.onAir = { await connector.isAdvertising(peer) }
        device.nameOnAir = { await connector.advertisedName(of: peer) }
        return device
    }

    /// Fails loudly when dbus-daemon is missing (`make deps` installs it): a `bluez-*` row is
    /// never skipped.
    static func serve(_ devices: [BlueZStandInDevice], scenario: String) async throws(FaultsError) -> BlueZBus {
        let daemon: PrivateDBusDaemon
        do {
            daemon = try PrivateDBusDaemon.start()
        } catch {
            throw .setup("scenario \(scenario): cannot start a private dbus-daemon (make deps installs it): \(error)")
        }
        let standIn: BlueZStandIn
        do {
            standIn = try await BlueZStandIn.start(bus: daemon.address)
        } catch {
            daemon.stop()
            throw .setup("scenario \(scenario): cannot start the BlueZ stand-in: \(error)")
        }
        for device in devices { await standIn.add(device) }
        let central: BlueZCentral
        do throws(BlueZError) {
            central = try await BlueZCentral.open(adapter: nil, bus: .address(daemon.address))
        } catch {
            await standIn.stop()
            daemon.stop()
            throw .setup("scenario \(scenario): the BlueZ central cannot open the stand-in's adapter: \(error)")
        }
        return BlueZBus(connector: central.connector(expecting: DFUServiceIDs.updatable), daemon: daemon, standIn: standIn,
                        central: central)
    }

    /// The private bus, for a `dfu` child to find the stand-in on (`DBUS_SYSTEM_BUS_ADDRESS`).
    var busAddress: String { daemon.address }

    func stop() async {
        central.close()
        await standIn.stop()
        daemon.stop()
    }
}
