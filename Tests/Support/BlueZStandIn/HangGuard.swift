/// Turns a hang into a failure: the bound is long (the machine is shared, 2 CPUs) and only ever
/// reached when something is stuck; nothing is timed by it.
public enum HangGuard {
    public static let limit: Duration = .seconds(60)

    public struct TimedOut: Error, CustomStringConvertible {
        public var what: String
        public var description: String { "gave up waiting for \(what) (hang?)" }
    }

    public static func within<T: Sendable>(_ what: String = "the operation", _ limit: Duration = limit,
                                           _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw TimedOut(what: what) }
            return value
        }
    }
}
