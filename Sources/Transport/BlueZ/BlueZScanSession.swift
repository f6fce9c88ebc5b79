import Synchronization
import Transport

/// One running discovery of this client on one adapter, with the device updates it produces until
/// the deadline. Used by `BlueZCentral.scan` and by the connector when it has to find a device.
///
/// The observer is registered before StartDiscovery, so no advertisement heard after the start is
/// missed. `stop()` must be called on every path (it is idempotent and survives cancellation).
final class BlueZScanSession: Sendable {
    /// The tree when observing began.
    let initialTree: BlueZObjectTree
    /// Device1 snapshots of the adapter's devices, each time one changed; ends at the deadline, at
    /// `stop()`, or when bluetoothd or the bus goes (`failure` says which).
    let updates: AsyncStream<BlueZDeviceInfo>

    private let client: BlueZClient
    private let adapter: BlueZAdapterInfo
    private let observerID: UInt64
    private let continuation: AsyncStream<BlueZDeviceInfo>.Continuation
    private let failureCell: FailureCell
    private let state = Mutex(State())

    private struct State {
        var stopped = false
        var timer: Task<Void, Never>?
        var restarter: Task<Void, Never>?
    }

    /// How often a running discovery is stopped and started again. A controller that filters
    /// duplicate reports (btvirt's, and any with the LE duplicate filter on) may report a device
    /// that was already advertising only once per scan start, and that one report can be lost
    /// (the kernel drops it when it comes before its discovery is under way, seen on the rig:
    /// test-bluez.md); each new start is another chance to hear it.
    static let restartInterval: Duration = .seconds(4)

    /// Written by the observer (which exists before the session), read by the scanner.
    private final class FailureCell: Sendable {
        let value = Mutex<BlueZError?>(nil)
    }

    private init(client: BlueZClient, adapter: BlueZAdapterInfo, initialTree: BlueZObjectTree, observerID: UInt64,
                 updates: AsyncStream<BlueZDeviceInfo>, continuation: AsyncStream<BlueZDeviceInfo>.Continuation,
                 failureCell: FailureCell) {
        self.client = client
        self.adapter = adapter
        self.initialTree = initialTree
        self.observerID = observerID
        self.updates = updates
        self.continuation = continuation
        self.failureCell = failureCell
    }

    /// Why the updates ended early, if bluetoothd or the bus went away.
    var failure: BlueZError? { failureCell.value.withLock { $0 } }

    /// `reportingDevices: false` leaves `updates` empty (it still ends as described), for a caller
    /// that watches the tree itself and would never drain them.
    static func start(client: BlueZClient, adapter: BlueZAdapterInfo, filter: BlueZScanFilter,
                      deadline: ContinuousClock.Instant, reportingDevices: Bool = true) async throws(BlueZError)
        -> BlueZScanSession {
        let (updates, continuation) = AsyncStream.makeStream(of: BlueZDeviceInfo.self)
        let failure = FailureCell()
        let adapterPath = adapter.path
        let observed = client.store.observe { event in
            switch event {
            case .changed(let change, let tree):
                guard reportingDevices, let path = Self.devicePath(of: change), let device = tree.device(at: path),
                      device.adapterPath == adapterPath else { return }
                continuation.yield(device)
            case .bluetoothdLeft:
                failure.value.withLock { $0 = .bluetoothdNotRunning }
                continuation.finish()
            case .busLost:
                failure.value.withLock { $0 = $0 ?? .busUnavailable("the connection to the system bus was lost") }
                continuation.finish()
            }
        }
        guard let observed else { throw .busUnavailable("the connection to the system bus was lost") }
        do throws(BlueZError) {
            try await client.startDiscovery(on: adapter, filter: filter)
        } catch {
            client.store.removeObserver(observed.id)
            continuation.finish()
            throw error
        }
        let session = BlueZScanSession(client: client, adapter: adapter, initialTree: observed.tree,
                                       observerID: observed.id, updates: updates, continuation: continuation,
                                       failureCell: failure)
        let timer = Task {
            try? await Task.sleep(until: deadline, clock: .continuous)
            continuation.finish()
        }
        let restarter = Task { await session.restartPeriodically(filter: filter, until: deadline) }
        session.state.withLock {
            $0.timer = timer
            $0.restarter = restarter
        }
        return session
    }

    /// Stops and starts discovery every `restartInterval` until the deadline or `stop()`. A start
    /// refused right after the stop (bluetoothd or the kernel still stopping: busy, in progress)
    /// is tried again every 250 ms: giving up would leave the rest of the search without any
    /// discovery at all. Only an adapter or a bluetoothd that went ends the restarts.
    private func restartPeriodically(filter: BlueZScanFilter, until deadline: ContinuousClock.Instant) async {
        var next = ContinuousClock.now.advanced(by: Self.restartInterval)
        while next < deadline {
            do { try await Task.sleep(until: next, clock: .continuous) } catch { return }
            guard !state.withLock({ $0.stopped }) else { return }
            _ = await client.callDetached(adapter.path, BlueZNames.adapter, "StopDiscovery")
            while true {
                guard !Task.isCancelled, !state.withLock({ $0.stopped }), ContinuousClock.now < deadline else { return }
                do throws(BlueZError) {
                    try await client.startDiscovery(on: adapter, filter: filter)
                    break
                } catch {
                    switch error {
                    case .adapterPoweredOff, .adapterNotFound, .noAdapter, .bluetoothdNotRunning, .busUnavailable,
                         .accessDenied:
                        return
                    case .discoveryFailed, .failed:
                        do { try await Task.sleep(for: .milliseconds(250)) } catch { return }
                    }
                }
            }
            next = ContinuousClock.now.advanced(by: Self.restartInterval)
        }
    }

    /// The Device1 object a change concerns, if any.
    static func devicePath(of change: BlueZObjectTree.Change) -> String? {
        switch change {
        case .added(let path, let interfaces) where interfaces.contains(BlueZNames.device): return path
        case .properties(let path, BlueZNames.device, _, _): return path
        default: return nil
        }
    }

    /// Ends the updates, stops discovery and clears our filter. Idempotent; runs under cancellation.
    func stop() async {
        let (first, restarter) = state.withLock { state -> (Bool, Task<Void, Never>?) in
            defer { state.stopped = true }
            state.timer?.cancel()
            state.restarter?.cancel()
            return (!state.stopped, state.restarter)
        }
        guard first else { return }
        client.store.removeObserver(observerID)
        continuation.finish()
        // A restart under way finishes first, so that it cannot start discovery again after this stop.
        await restarter?.value
        await client.stopDiscovery(on: adapter)
    }
}
