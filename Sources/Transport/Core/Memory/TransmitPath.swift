/// One direction's transmit side: the host queue of SDUs waiting for controller buffers, and the
/// controller buffers holding LL fragments until the radio sends them. A plain value the radio
/// actor owns; it returns the continuations to resume instead of resuming them itself.
struct TransmitPath<PDU: Sendable> {
    typealias Acceptance = CheckedContinuation<Result<Void, LinkError>, Never>

    /// An SDU not yet wholly in controller buffers.
    struct Pending {
        let id: UInt64
        let pdu: PDU
        let fragments: [Int]
        var placed = 0
        /// Resumed when the last fragment is in a buffer (a writer waiting for back-pressure to clear).
        let acceptance: Acceptance?
    }

    /// One LL PDU in a controller buffer. `completes` is set on an SDU's last fragment.
    struct Fragment {
        let size: Int
        let completes: PDU?
    }

    let bufferCount: Int
    private var host: [Pending] = []
    private var controller: [Fragment] = []

    init(bufferCount: Int) { self.bufferCount = bufferCount }

    /// The fragment the radio sends next.
    var head: Fragment? { controller.first }

    /// Nothing waiting and nothing in buffers: all of it went over the air.
    var isEmpty: Bool { host.isEmpty && controller.isEmpty }

    /// Whether an SDU of `fragmentCount` fragments would be taken whole at once, keeping order.
    func canTakeAtOnce(fragmentCount: Int) -> Bool {
        host.isEmpty && bufferCount - controller.count >= fragmentCount
    }

    mutating func enqueue(_ pending: Pending) { host.append(pending) }

    /// Moves waiting fragments into free buffers in order; returns the writers now accepted.
    mutating func fill() -> [Acceptance] {
        var accepted: [Acceptance] = []
        while controller.count < bufferCount, !host.isEmpty {
            let last = host[0].placed == host[0].fragments.count - 1
            controller.append(Fragment(size: host[0].fragments[host[0].placed], completes: last ? host[0].pdu : nil))
            host[0].placed += 1
            if last {
                if let acceptance = host[0].acceptance { accepted.append(acceptance) }
                host.removeFirst()
            }
        }
        return accepted
    }

    /// The radio sent the head fragment and it was acknowledged: frees its buffer.
    mutating func sendHead() -> Fragment? {
        controller.isEmpty ? nil : controller.removeFirst()
    }

    /// Withdraws a waiting SDU none of whose fragments reached a buffer; nil if it is gone or started.
    mutating func cancel(id: UInt64) -> Acceptance? {
        guard let index = host.firstIndex(where: { $0.id == id && $0.placed == 0 }) else { return nil }
        return host.remove(at: index).acceptance
    }

    /// Empties both queues (the link dropped); returns the writers still waiting.
    mutating func clear() -> [Acceptance] {
        let waiting = host.compactMap(\.acceptance)
        host.removeAll()
        controller.removeAll()
        return waiting
    }
}
