import DBusBinding
import Synchronization

/// The live copy of bluetoothd's object tree, and everyone waiting on it. `BlueZClient` feeds it
/// signals in arrival order; waiters are woken when their predicate holds, observers are told of
/// every change in the same order. No libdbus here: only a lock, continuations and timer tasks.
///
/// Observers run on the feeding task, outside the lock, one change at a time, so an observer sees
/// changes in bus order and may call back into the store.
final class BlueZTreeStore: Sendable {
    /// How a wait ended.
    enum WaitOutcome: Sendable {
        /// The predicate held on this tree.
        case satisfied(BlueZObjectTree)
        case timedOut
        case cancelled
        /// The bus connection broke (or bluetoothd's connection was closed by us).
        case busLost
    }

    /// What observers are told.
    enum Event: Sendable {
        case changed(BlueZObjectTree.Change, BlueZObjectTree)
        /// bluetoothd left the bus: every object is gone (the tree is now empty).
        case bluetoothdLeft
        /// Our bus connection ended; nothing more will come.
        case busLost
    }

    typealias Observer = @Sendable (Event) -> Void

    private struct Waiter {
        let predicate: @Sendable (BlueZObjectTree) -> Bool
        let continuation: CheckedContinuation<WaitOutcome, Never>
        var timer: Task<Void, Never>?
    }

    private struct State {
        var tree: BlueZObjectTree
        var busLost = false
        var waiters: [UInt64: Waiter] = [:]
        var observers: [UInt64: Observer] = [:]
        var lastID: UInt64 = 0

        mutating func nextID() -> UInt64 {
            lastID += 1
            return lastID
        }
    }

    private let state: Mutex<State>

    init(tree: BlueZObjectTree) {
        state = Mutex(State(tree: tree))
    }

    var tree: BlueZObjectTree { state.withLock { $0.tree } }

    // MARK: - Feeding

    /// Applies a bluetoothd signal; wakes waiters whose predicate now holds; tells observers.
    func apply(_ signal: DBusSignal) {
        let (change, tree, observers) = state.withLock { state -> (BlueZObjectTree.Change?, BlueZObjectTree, [Observer]) in
            guard !state.busLost, let change = state.tree.apply(signal) else { return (nil, state.tree, []) }
            wakeSatisfied(&state)
            return (change, state.tree, state.observers.sorted { $0.key < $1.key }.map(\.value))
        }
        guard let change else { return }
        for observer in observers { observer(.changed(change, tree)) }
    }

    /// bluetoothd left the bus: its objects are gone without InterfacesRemoved.
    func bluetoothdLeft() {
        let observers = state.withLock { state -> [Observer] in
            state.tree.removeAll()
            wakeSatisfied(&state)
            return state.observers.sorted { $0.key < $1.key }.map(\.value)
        }
        for observer in observers { observer(.bluetoothdLeft) }
    }

    /// Our connection ended: every waiter gets `.busLost`, observers hear it once and are dropped.
    func busEnded() {
        let (waiters, observers) = state.withLock { state -> ([Waiter], [Observer]) in
            guard !state.busLost else { return ([], []) }
            state.busLost = true
            let waiters = Array(state.waiters.values)
            state.waiters = [:]
            let observers = state.observers.sorted { $0.key < $1.key }.map(\.value)
            state.observers = [:]
            return (waiters, observers)
        }
        for waiter in waiters {
            waiter.timer?.cancel()
            waiter.continuation.resume(returning: .busLost)
        }
        for observer in observers { observer(.busLost) }
    }

    private func wakeSatisfied(_ state: inout State) {
        for (id, waiter) in state.waiters where waiter.predicate(state.tree) {
            state.waiters[id] = nil
            waiter.timer?.cancel()
            waiter.continuation.resume(returning: .satisfied(state.tree))
        }
    }

    // MARK: - Waiting and observing

    /// Waits until `predicate` holds on the tree (checked now, then after every change), the
    /// deadline passes, the task is cancelled or the bus goes.
    func wait(until deadline: ContinuousClock.Instant,
              for predicate: @escaping @Sendable (BlueZObjectTree) -> Bool) async -> WaitOutcome {
        let id = state.withLock { $0.nextID() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<WaitOutcome, Never>) in
                let immediate = state.withLock { state -> WaitOutcome? in
                    if state.busLost { return .busLost }
                    if Task.isCancelled { return .cancelled }
                    if predicate(state.tree) { return .satisfied(state.tree) }
                    state.waiters[id] = Waiter(predicate: predicate, continuation: continuation)
                    return nil
                }
                if let immediate { return continuation.resume(returning: immediate) }
                let timer = Task { [weak self] in
                    try? await Task.sleep(until: deadline, clock: .continuous)
                    guard !Task.isCancelled else { return }
                    self?.finishWaiter(id, with: .timedOut)
                }
                let stillWaiting = state.withLock { state -> Bool in
                    guard state.waiters[id] != nil else { return false }
                    state.waiters[id]?.timer = timer
                    return true
                }
                if !stillWaiting { timer.cancel() }
            }
        } onCancel: {
            finishWaiter(id, with: .cancelled)
        }
    }

    private func finishWaiter(_ id: UInt64, with outcome: WaitOutcome) {
        let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
        waiter?.timer?.cancel()
        waiter?.continuation.resume(returning: outcome)
    }

    /// Registers `observer` and returns its id with the tree as it was at that moment: every later
    /// change reaches the observer, none before. Returns nil when the bus is already gone.
    func observe(_ observer: @escaping Observer) -> (id: UInt64, tree: BlueZObjectTree)? {
        state.withLock { state in
            guard !state.busLost else { return nil }
            let id = state.nextID()
            state.observers[id] = observer
            return (id, state.tree)
        }
    }

    func removeObserver(_ id: UInt64) {
        _ = state.withLock { $0.observers.removeValue(forKey: id) }
    }
}
