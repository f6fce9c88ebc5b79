@testable import DFUCore
import DeviceSim
import Synchronization
import Transport

/// Power-cycles the virtual nRF52's serial bootloader as the host is about to write Execute once
/// it has written every Write Object byte of the sample (its 141-byte init packet and 49,152 bytes
/// of firmware): the final Execute never reaches the bootloader. It reads the SLIP frames on the
/// byte link, under `NordicSerialLink`, which the session must see as it is.
final class SerialPowerCutAtFinalExecute: Connector {
    static let packetBytes = 141 + 49_152
    let inner: any Connector
    let server: NordicSerialServer
    private let state = Mutex((decoder: SLIPDecoder(maximumFrameSize: 4096), packets: 0, fired: false))

    init(inner: any Connector, server: NordicSerialServer) {
        self.inner = inner
        self.server = server
    }

    var fired: Bool { state.withLock { $0.fired } }

    func connect(to peer: PeerIdentity, deadline: ContinuousClock.Instant) async throws(LinkError) -> any Link {
        Watched(inner: try await inner.connect(to: peer, deadline: deadline), owner: self)
    }

    /// Reads the frames in `bytes`: true when they hold the final Execute (once).
    fileprivate func cutsPower(before bytes: [UInt8]) -> Bool {
        state.withLock { state in
            var due = false
            for case .frame(let frame) in state.decoder.receive(bytes) {
                if frame.first == NordicSerialOpcode.writeObject.rawValue { state.packets += frame.count - 1 }
                if frame == [NordicOpcode.execute.rawValue], state.packets >= Self.packetBytes, !state.fired {
                    state.fired = true
                    due = true
                }
            }
            return due
        }
    }

    private struct Watched: ForwardingLink {
        let inner: any Link
        let owner: SerialPowerCutAtFinalExecute

        func writeWithoutResponse(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
            if owner.cutsPower(before: bytes) { await owner.server.powerCycle() }
            try await inner.writeWithoutResponse(bytes, to: characteristic)
        }

        func read(_ characteristic: CharacteristicID) async throws(LinkError) -> [UInt8] { try await inner.read(characteristic) }
        func subscribe(_ characteristic: CharacteristicID) async throws(LinkError) { try await inner.subscribe(characteristic) }
        func disconnect() async { await inner.disconnect() }
    }
}
