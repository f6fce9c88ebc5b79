import Dispatch
import Synchronization
import Transport

/// Turns a `HostAndPort` into socket addresses, in the resolver's preferred order (RFC 6724 for a
/// name with both IPv4 and IPv6 addresses).
///
/// A numeric host is converted on the spot. A name goes to `getaddrinfo`, which blocks for as long
/// as the name server takes and cannot be interrupted, so it runs on a Dispatch global queue, never
/// on the cooperative pool, and the caller stops waiting at its deadline or when its task is
/// cancelled; a lookup answered later is discarded.
enum HostResolver {
    enum Failure: Error, Hashable {
        case address(UDPAddressError)
        case timedOut
        case cancelled
    }

    static func resolve(_ target: HostAndPort, deadline: ContinuousClock.Instant? = nil) async
        -> Result<[SocketAddress], Failure> {
        if let address = target.numericAddress { return .success([address]) }
        let answer = OneAnswer()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                answer.wait(with: continuation)
                if Task.isCancelled { answer.give(.failure(.cancelled)) }
                if let deadline {
                    // Clamped so the nanosecond count cannot overflow for a deadline years away.
                    let remaining = min(max(ContinuousClock.now.duration(to: deadline), .zero), .seconds(1_000_000))
                    DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(remaining.wholeNanoseconds))) {
                        answer.give(.failure(.timedOut))
                    }
                }
                DispatchQueue.global().async {
                    answer.give(lookUp(target))
                }
            }
        } onCancel: {
            answer.give(.failure(.cancelled))
        }
    }

    private static func lookUp(_ target: HostAndPort) -> Result<[SocketAddress], Failure> {
        switch SystemCall.resolve(host: target.hostText, port: target.port) {
        case .success(let addresses): return .success(addresses)
        case .failure(.temporary(let reason)): return .failure(.address(.resolverUnavailable(target.hostText, reason: reason)))
        case .failure(.permanent(let reason)): return .failure(.address(.unknownHost(target.hostText, reason: reason)))
        }
    }

    /// The first of the lookup, the deadline and cancellation to answer wins; the others find the
    /// continuation gone. One lock, so exactly one resume.
    private final class OneAnswer: Sendable {
        private let waiter = Mutex<CheckedContinuation<Result<[SocketAddress], Failure>, Never>?>(nil)

        /// Called first, before the lookup and the deadline are armed. A cancellation that came
        /// earlier found no waiter; the caller checks `Task.isCancelled` right after this.
        func wait(with continuation: CheckedContinuation<Result<[SocketAddress], Failure>, Never>) {
            waiter.withLock { $0 = continuation }
        }

        func give(_ result: Result<[SocketAddress], Failure>) {
            waiter.withLock { waiting in
                waiting?.resume(returning: result)
                waiting = nil
            }
        }
    }
}
