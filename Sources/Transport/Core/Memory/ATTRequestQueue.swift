/// The central's ATT requests on one memory connection. ATT allows one request in flight: the
/// next goes out only once the response to the last has come. The others wait in call order. A
/// request whose caller gave up keeps its place in flight until its response arrives, as on air.
struct ATTRequestQueue {
    typealias Answer = CheckedContinuation<Result<[UInt8], LinkError>, Never>

    struct Request {
        let id: RequestID
        let characteristic: CharacteristicID
        let pdu: CentralPDU
        /// Nil once the caller was cancelled; the response must still arrive before the next request.
        var waiter: Answer?
    }

    private var active: Request?
    private var queued: [Request] = []

    /// Puts `request` behind the others.
    mutating func append(_ request: Request) {
        queued.append(request)
    }

    /// The request to put on air now, which is then the one in flight; nil while one is in flight
    /// or none waits.
    mutating func startNext() -> Request? {
        guard active == nil, !queued.isEmpty else { return nil }
        let next = queued.removeFirst()
        active = next
        return next
    }

    /// The caller of request `id` gave up: a waiting request leaves the queue, the one in flight
    /// stays until its response (which then answers nobody). Its caller gets `.cancelled`.
    mutating func abandon(_ id: RequestID) {
        if let index = queued.firstIndex(where: { $0.id == id }) {
            queued.remove(at: index).waiter?.resume(returning: .failure(.cancelled))
        } else if active?.id == id {
            active?.waiter?.resume(returning: .failure(.cancelled))
            active?.waiter = nil
        }
    }

    /// The response to request `id` arrived: the request in flight if it is that one (it ends, and
    /// the next may go), nil otherwise.
    mutating func complete(_ id: RequestID) -> Request? {
        guard let current = active, current.id == id else { return nil }
        active = nil
        return current
    }

    /// The link dropped: every request, in flight or waiting, ends with `error`.
    /// Fails every request with the error `error` makes for its characteristic.
    mutating func failAll(_ error: (CharacteristicID) -> LinkError) {
        if let active { active.waiter?.resume(returning: .failure(error(active.characteristic))) }
        active = nil
        for request in queued { request.waiter?.resume(returning: .failure(error(request.characteristic))) }
        queued.removeAll()
    }
}
