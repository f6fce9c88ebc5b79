#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The pump's own OS thread: it blocks in `poll`, which must never happen on the cooperative pool.
extension SystemCall {
    /// Starts a detached OS thread running `body`. `body` is boxed and handed through the C start
    /// routine's context pointer (`Unmanaged`), which the thunk takes back at once.
    package static func startThread(_ body: @escaping @Sendable () -> Void) throws(SystemCallError) {
        let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            throw SystemCallError(call: "pthread_create", code: status)
        }
        pthread_detach(thread)
    }
}

/// The closure a thread started by `SystemCall.startThread` runs.
private final class ThreadBody: Sendable {
    let run: @Sendable () -> Void

    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}
