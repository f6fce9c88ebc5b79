import BlueZTransport
import DFUCore
import Transport

/// The BlueZ connector, opened on the first connect rather than when the command starts. `dfu
/// flash` checks the image (the engine's first stage) before it connects, so a corrupt image is
/// refused as such (exit 3) even on a machine where bluetoothd is missing or the adapter is off;
/// those problems then end the connect stage at once with their one-line fix (exit 5).
actor LazyBlueZConnector: Connector {
    private let adapter: String?
    private let pairing: BlueZPairing
    private let connectGate: BlueZConnectGate?
    private let log: @Sendable (String) -> Void
    private var opened: Result<(BlueZCentral, BlueZConnector), BlueZError>?
    private var closed = false

    init(adapter: String?, pairing: BlueZPairing = .none, connectGate: BlueZConnectGate? = nil,
         log: @escaping @Sendable (String) -> Void) {
        self.adapter = adapter
        self.pairing = pairing
        self.connectGate = connectGate
        self.log = log
    }

    func connect(to peer: PeerIdentity, deadline: ContinuousClock.Instant) async throws(LinkError) -> any Link {
        let connector = try await open()
        return try await connector.connect(to: peer, deadline: deadline)
    }

    func connect(toAnyOf peers: [PeerIdentity],
                 deadline: ContinuousClock.Instant) async throws(LinkError) -> (PeerIdentity, any Link) {
        let connector = try await open()
        return try await connector.connect(toAnyOf: peers, deadline: deadline)
    }

    /// Unregisters the pairing agent and releases the bus connection, if one was opened; later
    /// connects fail.
    func close() async {
        closed = true
        if case .success(let (central, connector)) = opened {
            await connector.releaseAgent()
            central.close()
        }
    }

    private func open() async throws(LinkError) -> BlueZConnector {
        if closed { throw .cancelled }
        if opened == nil {
            let result: Result<(BlueZCentral, BlueZConnector), BlueZError>
            do throws(BlueZError) {
                let central = try await BlueZCentral.open(adapter: adapter)
                do throws(BlueZError) {
                    let connector = try await central.connector(expecting: DFUServiceIDs.updatable, pairing: pairing,
                                                                  connectGate: connectGate, log: log)
                    result = .success((central, connector))
                    log("using adapter \(central.adapterName)")
                } catch {
                    central.close()
                    throw error
                }
            } catch {
                result = .failure(error)
            }
            // An actor may be re-entered while `open` awaited: keep the first central opened.
            if opened == nil {
                opened = result
            } else if case .success(let (central, connector)) = result {
                await connector.releaseAgent()
                central.close()
            }
        }
        switch opened {
        case .success(let (_, connector))?: return connector
        case .failure(let error)?: throw .unavailable(error.description)
        case nil: throw .cancelled
        }
    }
}
