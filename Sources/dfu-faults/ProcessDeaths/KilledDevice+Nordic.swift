import DFUCore
import DeviceSim
import Transport

/// The virtual nRF52, what its bootloader was sent over the Packet path counted (the init packet,
/// then the firmware): its bootloader on a pseudo-terminal, in DFU mode from the start (`--device
/// serial:PATH,baud=…`), or the application with its buttonless DFU service behind the BlueZ
/// stand-in on a private bus, the bootloader it starts heard at the address + 1 (`--device
/// ADDRESS`, the bus named by `DBUS_SYSTEM_BUS_ADDRESS`).
extension KilledDevice where Snapshot == NordicVirtualDevice {
    /// `directory`: where the pseudo-terminal's link goes (the run's own). `execute`: told of each
    /// Execute the serial bootloader gets, before it acts on it (over BLE the counter sees them).
    static func serve(_ setup: SimSetup, over: ProcessDeath.Over, counter: UploadCounter, directory: String,
                      scenario: String, execute: @escaping @Sendable () -> Void = {}) async throws(FaultsError) -> KilledDevice {
        switch over {
        case .wire, .serial, .usbSerial:
            return try await serial(setup, counter: counter, path: directory + "/tty", scenario: scenario, execute: execute)
        case .bluez: return try await bluez(setup, counter: counter, scenario: scenario)
        }
    }

    /// Counted as the bootloader receives its Write Objects.
    private static func serial(_ setup: SimSetup, counter: UploadCounter, path: String, scenario: String,
                               execute: @escaping @Sendable () -> Void) async throws(FaultsError) -> KilledDevice {
        let configuration: NordicDeviceConfiguration
        do throws(SimOptionsError) {
            configuration = try setup.options.nordicDeviceConfiguration()
        } catch {
            throw SimSetup.serveFailed(scenario, error)
        }
        let server: NordicSerialServer
        do throws(SimSerialPortError) {
            server = try await NordicPTYServer.start(configuration, at: path, clock: setup.clock, observer: { event in
                switch event {
                case .received(.writeObject(let data)): counter.add(data.count)
                case .received(.controlPoint(.execute)): execute()
                default: break
                }
            })
        } catch {
            throw .setup("scenario \(scenario): cannot serve the device on a pseudo-terminal: \(error)")
        }
        let clock = setup.clock
        return KilledDevice(device: "serial:\(path),baud=\(ServedDevice.serialBaud)", environment: [:],
                            snapshot: { await server.snapshot }, stop: { await server.stop() },
                            toDFUMode: { await NordicDFUMode.enter([server], clock: clock) },
                            powerCut: { await server.powerCycle() })
    }

    /// Counted as the stand-in hands the bootloader the Packet writes dfu made through its socket.
    private static func bluez(_ setup: SimSetup, counter: UploadCounter, scenario: String) async throws(FaultsError) -> KilledDevice {
        let peripheral: VirtualNordicPeripheral
        do throws(SimOptionsError) {
            peripheral = try await VirtualNordicPeripheral.serve(setup.options, on: setup.connector)
        } catch {
            throw SimSetup.serveFailed(scenario, error)
        }
        let services = [DFUServiceIDs.nordicSecureDFU]
        var devices = [BlueZBus.device(peripheral.applicationIdentity, name: "dfu-faults-nrf52", services: services, on: setup.connector),
                       BlueZBus.device(peripheral.bootloaderIdentity, name: "DfuTarg", services: services, on: setup.connector)]
        for index in devices.indices { devices[index].connector = CountingConnector(inner: setup.connector, counter: counter) }
        let bus = try await BlueZBus.serve(devices, scenario: scenario)
        return KilledDevice(device: peripheral.applicationIdentity.rawValue,
                                  environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.busAddress],
                                  snapshot: { await peripheral.snapshot }, stop: { await bus.stop() },
                                  powerCut: { await peripheral.powerCycle() })
    }
}
