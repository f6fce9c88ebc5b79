import Synchronization
import Transport

/// Opens `SerialLink`s to ports named by `serial:PATH` peer identities (PATH absolute):
/// `serial:/dev/ttyACM0`, `serial:/dev/serial/by-id/usb-…-if00`.
///
/// - While the port is missing or busy, `connect` tries again every 100 ms until the deadline: a
///   board that resets re-enumerates its USB port, and ModemManager may probe a fresh `ttyACM`
///   for a moment. Then it throws `.unavailable` with the port error's text. Permission denied,
///   not a terminal and any other system error throw `.unavailable` at once.
/// - By-id: at the first successful open of a path that is not under `<devRoot>/serial/`, the
///   connector finds the `<devRoot>/serial/by-id/` link that leads to the same device and remembers
///   it; later connects to that peer open the by-id link (the board may come back as another
///   `ttyACMn`), or the path as given while the link is missing. A by-id path given is used as is.
/// - Each link gets the next generation, starting at 1.
public final class SerialConnector: Connector {
    /// What every link shows itself as; the protocol above names its UUIDs.
    public let face: DatagramGATTFace
    public let settings: SerialPortSettings
    /// Every link's `maxWriteWithoutResponse`.
    public let maxWriteSize: Int
    private let byID: SerialByID
    private let lastGeneration = Mutex(LinkGeneration(0))
    /// The path as given → the by-id link found at its first open.
    private let stableNames = Mutex<[String: String]>([:])

    /// How long to wait before trying a missing or busy port again.
    public static let retryInterval = Duration.milliseconds(100)

    /// `devRoot` is where `serial/by-id` is looked for (tests give a folder of their own).
    public init(presenting face: DatagramGATTFace, settings: SerialPortSettings,
                maxWriteSize: Int = SerialLink.defaultMaxWriteSize, devRoot: String = "/dev") {
        self.face = face
        self.settings = settings
        self.maxWriteSize = maxWriteSize
        byID = SerialByID(devRoot: devRoot)
    }

    /// The generation of the newest link this connector made (0 before the first).
    public var latestGeneration: LinkGeneration { lastGeneration.withLock { $0 } }

    /// The path of a `serial:PATH` peer; nil when the peer is no such identity or PATH is not absolute.
    public static func path(of peer: PeerIdentity) -> String? {
        guard peer.rawValue.hasPrefix("serial:") else { return nil }
        let path = String(peer.rawValue.dropFirst("serial:".count))
        guard path.hasPrefix("/"), path.count > 1 else { return nil }
        return path
    }

    /// The by-id link remembered for `path`, if any.
    public func stableName(for path: String) -> String? {
        stableNames.withLock { $0[path] }
    }

    /// Throws `.peerNotFound` for a peer that is not `serial:/…`, `.unavailable` (the port error's
    /// text) when the port cannot be opened or stays missing or busy until `deadline`, `.cancelled`
    /// when the task is cancelled.
    public func connect(to peer: PeerIdentity, deadline: ContinuousClock.Instant) async throws(LinkError) -> any Link {
        if Task.isCancelled { throw .cancelled }
        guard let given = Self.path(of: peer) else { throw .peerNotFound(peer) }
        while true {
            let path = pathToOpen(given)
            do throws(SerialPortError) {
                // Opened under the counter's lock (open and set-up do not wait), so generations
                // follow the order links were made and a failed attempt skips none.
                let link = try lastGeneration.withLock { last throws(SerialPortError) -> SerialLink in
                    let link = try SerialLink.open(path, presenting: face, settings: settings, as: peer,
                                                   generation: last.next, maxWriteSize: maxWriteSize)
                    last = last.next
                    return link
                }
                remember(given, opened: path)
                return link
            } catch {
                guard error.isTransient else { throw .unavailable(error.description) }
                guard ContinuousClock.now.advanced(by: Self.retryInterval) < deadline else {
                    throw .unavailable(error.description)
                }
                do {
                    try await Task.sleep(for: Self.retryInterval)
                } catch {
                    throw .cancelled
                }
            }
            if Task.isCancelled { throw .cancelled }
        }
    }

    /// The by-id link remembered for `given` while it exists, else `given`.
    private func pathToOpen(_ given: String) -> String {
        guard let stable = stableName(for: given), FileSystem.exists(stable) else { return given }
        return stable
    }

    /// After the first open of a path that is not stable already, finds its by-id link.
    private func remember(_ given: String, opened path: String) {
        guard path == given, !byID.isStable(given), stableName(for: given) == nil,
              let link = byID.link(for: given) else { return }
        stableNames.withLock { $0[given] = $0[given] ?? link }
    }
}
