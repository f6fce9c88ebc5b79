import DBusBinding
import Synchronization
import Transport

/// Everything the stand-in puts on the bus (exports and signals), in the order the state changed.
///
/// Why a queue: the stand-in's state lives in an actor whose methods may interleave at suspension
/// points; each method queues its bus operations synchronously (no `await` between a change and
/// its signal), and one task carries them out in that order. `flush()` waits until everything
/// queued before it is on the bus, so a method reply can be sent after the signals it implies.
final class StandInOutbox: Sendable {
    enum Operation: Sendable {
        case export(DBusExportedObject)
        case unexport(String)
        case signal(path: String, interface: String, member: String, arguments: [DBusValue])
        case barrier(CheckedContinuation<Void, Never>)
    }

    private let continuation: AsyncStream<Operation>.Continuation
    private let failures = FailureLog()

    private final class FailureLog: Sendable {
        let entries = Mutex<[String]>([])
    }

    init(connection: DBusConnection) {
        let (operations, continuation) = AsyncStream<Operation>.makeStream()
        self.continuation = continuation
        let failures = self.failures
        Task {
            for await operation in operations {
                do {
                    switch operation {
                    case .export(let object): try await connection.export(object)
                    case .unexport(let path): try await connection.unexport(path: path)
                    case .signal(let path, let interface, let member, let arguments):
                        try await connection.emitSignal(path: path, interface: interface, member: member,
                                                        arguments: arguments)
                    case .barrier(let waiter): waiter.resume()
                    }
                } catch {
                    failures.entries.withLock { $0.append("\(operation): \(error)") }
                }
            }
        }
    }

    func send(_ operation: Operation) {
        if case .terminated = continuation.yield(operation), case .barrier(let waiter) = operation {
            waiter.resume()
        }
    }

    /// Returns once every operation queued before it has been carried out.
    func flush() async {
        await withCheckedContinuation { send(.barrier($0)) }
    }

    /// Ends the queue (operations already queued still run).
    func finish() {
        continuation.finish()
    }

    /// Bus operations that failed (a stand-in bug, or the bus went away), for tests to check.
    var problems: [String] { failures.entries.withLock { $0 } }
}
