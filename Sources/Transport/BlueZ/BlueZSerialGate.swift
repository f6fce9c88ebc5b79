import Synchronization
import Transport

/// A first-come, first-served async lock. BlueZ allows one `WriteValue` in flight per
/// characteristic (a second gets InProgress, bluez-dbus.md §1.4), and writes must leave in call
/// order: each characteristic's writes pass through one gate.
final class BlueZSerialGate: Sendable {
    private struct State {
        var busy = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Waits for the gate (in arrival order); pair with `leave()`.
    func enter() async {
        await withCheckedContinuation { continuation in
            state.withLock { state in
                if state.busy {
                    state.waiters.append(continuation)
                } else {
                    state.busy = true
                    continuation.resume()
                }
            }
        }
    }

    /// Hands the gate to the next waiter, or opens it.
    func leave() {
        state.withLock { state in
            if state.waiters.isEmpty {
                state.busy = false
            } else {
                state.waiters.removeFirst().resume()
            }
        }
    }
}

/// One gate per characteristic, made on first use.
final class BlueZGates: Sendable {
    private let gates = Mutex<[CharacteristicID: BlueZSerialGate]>([:])

    func gate(for id: CharacteristicID) -> BlueZSerialGate {
        gates.withLock { gates in
            if let gate = gates[id] { return gate }
            let gate = BlueZSerialGate()
            gates[id] = gate
            return gate
        }
    }
}
