import DBusBinding
import Transport

/// One bus connection to bluetoothd with a live object tree (`BlueZTreeStore`).
///
/// Opening subscribes to every signal `org.bluez` sends (one match rule, so InterfacesAdded/
/// Removed and PropertiesChanged stay in bus order) and to NameOwnerChanged (bluetoothd leaving
/// takes its objects with it, unannounced) BEFORE reading `GetManagedObjects`, so nothing falls
/// between the snapshot and the signals (bleak does the same). Signals queued before the reply
/// are applied on top of it; a PropertiesChanged for an object the snapshot lacks is ignored.
final class BlueZClient: Sendable {
    let connection: DBusConnection
    let store: BlueZTreeStore
    /// StartNotify sessions of this connection that bluetoothd may arm again on a reconnect.
    let notifySessions = BlueZNotifySessions()

    private init(connection: DBusConnection, store: BlueZTreeStore) {
        self.connection = connection
        self.store = store
    }

    deinit { connection.close() }

    static func open(bus: DBusBusAddress) async throws(BlueZError) -> BlueZClient {
        let connection: DBusConnection
        do {
            connection = try await DBusConnection.connect(to: bus)
        } catch {
            throw BlueZError.fromBusConnect(error)
        }
        do {
            let bluez = try await connection.signals(matching: DBusMatchRule(sender: BlueZNames.service))
            let owners = try await connection.signals(matching: DBusMatchRule(
                sender: DBusStandardInterface.bus, path: "/org/freedesktop/DBus",
                interface: DBusStandardInterface.bus, member: "NameOwnerChanged"))
            let reply = try await connection.call(destination: BlueZNames.service, path: "/",
                                                  interface: DBusStandardInterface.objectManager,
                                                  member: "GetManagedObjects", timeout: .seconds(10))
            let store = BlueZTreeStore(tree: BlueZObjectTree(managedObjects: reply.first ?? .array(elementSignature: "y", [])))
            startPump(store: store, bluez: bluez, owners: owners)
            return BlueZClient(connection: connection, store: store)
        } catch {
            connection.close()
            throw BlueZError.from(error as? DBusError ?? .malformed(String(describing: error)))
        }
    }

    /// Feeds the store from both streams through one ordered queue. Holds the store, not the
    /// client, so dropping the client (which closes the connection) ends the pump.
    private static func startPump(store: BlueZTreeStore, bluez: AsyncStream<DBusSignal>, owners: AsyncStream<DBusSignal>) {
        enum Input: Sendable { case bluez(DBusSignal), owner(DBusSignal), ended }
        let (inputs, continuation) = AsyncStream.makeStream(of: Input.self)
        Task {
            for await signal in bluez { continuation.yield(.bluez(signal)) }
            continuation.yield(.ended)
            continuation.finish()
        }
        Task {
            for await signal in owners { continuation.yield(.owner(signal)) }
        }
        Task {
            for await input in inputs {
                switch input {
                case .bluez(let signal):
                    store.apply(signal)
                case .owner(let signal):
                    // NameOwnerChanged(s name, s old, s new): org.bluez lost its owner.
                    guard signal.arguments.count >= 3, case .string(BlueZNames.service) = signal.arguments[0],
                          case .string("") = signal.arguments[2] else { continue }
                    store.bluetoothdLeft()
                case .ended:
                    store.busEnded()
                }
            }
            store.busEnded()
        }
    }

    /// Calls a bluetoothd method. Errors come back as `DBusError` (classify with `BlueZFailure`).
    func call(_ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue] = [],
              timeout: Duration = .seconds(25)) async throws(DBusError) -> [DBusValue] {
        do {
            return try await connection.call(destination: BlueZNames.service, path: path, interface: interface,
                                             member: member, arguments: arguments, timeout: timeout)
        } catch let error as DBusError {
            throw error
        } catch {
            throw .malformed(String(describing: error))
        }
    }

    /// `call` in a task of its own, so it runs even when the caller is cancelled: for clean-up
    /// (StopDiscovery, Disconnect) that must happen on every exit path.
    func callDetached(_ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue] = [],
                      timeout: Duration = .seconds(10)) async -> Result<[DBusValue], DBusError> {
        await Task {
            do throws(DBusError) {
                return .success(try await call(path, interface, member, arguments, timeout: timeout))
            } catch {
                return .failure(error)
            }
        }.value
    }

    func close() {
        connection.close()
    }
}
