#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How a `dfu sim` server's run ended.
enum SimEnding: Sendable {
    case signal(String)
    case serverEnded

    /// Whichever comes first: a stop signal, or the server ending on its own. Either way the
    /// server is stopped when this returns, which also ends the other child task (the group waits
    /// for both).
    static func first(of server: some SimServer, signals: StopSignals) async -> SimEnding {
        await withTaskGroup(of: SimEnding?.self) { group in
            group.addTask {
                await server.waitUntilStopped()
                return .serverEnded
            }
            group.addTask {
                for await number in signals.received {
                    await server.stop()
                    return .signal(number == SIGINT ? "SIGINT" : number == SIGTERM ? "SIGTERM" : "signal \(number)")
                }
                return nil
            }
            // The first answer ends the wait for signals too (cancelling the stream's iteration).
            let first = await group.next() ?? nil
            group.cancelAll()
            var ending = first ?? .serverEnded
            // A signal's answer wins over the server's, which may come first because of it.
            for await case let result? in group {
                if case .signal = result { ending = result }
            }
            return ending
        }
    }
}
