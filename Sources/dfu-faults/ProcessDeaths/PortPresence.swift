import Synchronization

/// Whether a served USB serial port is there, from its server's `portVanished` and `portBack`
/// events. A device that drops its USB line closes the port and opens it again from a task of its
/// own, so on a loaded machine the command that finishes a killed run could start in between and
/// find no port: exit 5, a run the scenario ("the port vanishes and comes back, then dfu resume")
/// does not describe.
final class PortPresence: Sendable {
    private let counts = Mutex((vanished: 0, back: 0))

    func vanished() { counts.withLock { $0.vanished += 1 } }
    func cameBack() { counts.withLock { $0.back += 1 } }

    /// Returns once the port has vanished at least once and come back as often, or after `limit`
    /// (real time; the run then meets whatever is there).
    func waitUntilBack(limit: Duration = .seconds(10)) async {
        let end = ContinuousClock.now + limit
        while ContinuousClock.now < end {
            let (vanished, back) = counts.withLock { ($0.vanished, $0.back) }
            if vanished > 0, back >= vanished { return }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}
