import DBusBinding
import Transport

/// One test's world: a private dbus-daemon, the stand-in on it (or no `org.bluez` at all), and a
/// `MemoryConnector` on an unpaced clock for the devices behind it. `run` tears everything down
/// on every path.
public final class BlueZStandInBench: Sendable {
    public let daemon: PrivateDBusDaemon
    /// nil when the bench was started without bluetoothd.
    public let standIn: BlueZStandIn?
    public let connector: MemoryConnector

    /// The bus address to hand to the code under test (`DBUS_SYSTEM_BUS_ADDRESS`, `.address`).
    public var busAddress: String { daemon.address }

    private init(daemon: PrivateDBusDaemon, standIn: BlueZStandIn?, connector: MemoryConnector) {
        self.daemon = daemon
        self.standIn = standIn
        self.connector = connector
    }

    /// Runs `body` with a fresh bench. `bluetoothd: false` leaves `org.bluez` without an owner;
    /// `policyDeniesBluez` makes the bus refuse every call to it (AccessDenied), as the system
    /// bus does for a user outside the `bluetooth` group.
    public static func run<T: Sendable>(adapters: [BlueZStandInAdapter] = [BlueZStandInAdapter()],
                                        timing: BlueZStandInTiming = BlueZStandInTiming(),
                                        bluetoothd: Bool = true, policyDeniesBluez: Bool = false,
                                        connector: MemoryConnector = MemoryConnector(clock: .unpaced()),
                                        _ body: (BlueZStandInBench) async throws -> T) async throws -> T {
        try await PrivateDBusDaemon.withDaemon(denyingSendsTo: policyDeniesBluez ? ["org.bluez"] : []) { daemon in
            let standIn = bluetoothd ? try await BlueZStandIn.start(bus: daemon.address, adapters: adapters, timing: timing) : nil
            let bench = BlueZStandInBench(daemon: daemon, standIn: standIn, connector: connector)
            do {
                let result = try await body(bench)
                await standIn?.stop()
                return result
            } catch {
                await standIn?.stop()
                throw error
            }
        }
    }

    public struct NoStandIn: Error, CustomStringConvertible {
        public var description: String { "the bench was started without the stand-in" }
    }

    /// The stand-in, or an error for a bench without one.
    public func requireStandIn() throws -> BlueZStandIn {
        guard let standIn else { throw NoStandIn() }
        return standIn
    }

    /// Registers a `BlueZTestPeripheral` on the connector and makes the stand-in hear it at
    /// `address`. `configure` sets knobs on the device spec.
    @discardableResult
    public func addTestPeripheral(address: String, name: String? = "standin-device",
                                  services: [ServiceID] = [BlueZTestPeripheral.smpService], rssi: Int16 = -50,
                                  profile: LinkProfile = .fast2M, echo: Bool = false,
                                  configure: (inout BlueZStandInDevice) -> Void = { _ in }) async throws
        -> BlueZTestPeripheral {
        let peripheral = BlueZTestPeripheral(echo: echo)
        let peer = PeerIdentity("memory:" + address)
        await connector.register(peripheral, as: peer, profile: profile)
        var device = BlueZStandInDevice(address: address,
                                        advertisement: BlueZStandInAdvertisement(name: name, services: services, rssi: rssi),
                                        connector: connector, peer: peer)
        configure(&device)
        try await requireStandIn().add(device)
        return peripheral
    }

    /// A raw client connection to the bench's bus.
    public func client() async throws -> DBusConnection {
        try await DBusConnection.connect(to: .address(daemon.address))
    }
}
