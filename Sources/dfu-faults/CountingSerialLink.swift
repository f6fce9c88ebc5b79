import DFUCore
import Synchronization
import Transport

/// A serial port's byte link that passes everything through and reads the SLIP frames the host
/// writes on it: the data of each Write Object (`08 …`) adds to the run's `UploadCounter`, and an
/// Execute (`04`) is shown to it before it leaves, so its tripwires fire as over the Nordic
/// bootloader's GATT face (`CountingLink`). It sits under `NordicSerialLink`, which the Nordic
/// session must find as it is (`link as? NordicSerialLink`: the ping probe, no reconnect to the
/// application after the activation), so the count is taken one layer down.
final class CountingSerialLink: ForwardingLink {
    let inner: any Link
    private let counter: UploadCounter
    private let decoder = Mutex(SLIPDecoder(maximumFrameSize: 4096))

    init(_ inner: any Link, counter: UploadCounter) {
        self.inner = inner
        self.counter = counter
    }

    /// Frames are read before the bytes are written, so an Execute's tripwire (a power cut) is
    /// done before the Execute reaches the line.
    func writeWithoutResponse(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
        let frames = decoder.withLock { decoder in
            decoder.receive(bytes).compactMap { event -> [UInt8]? in
                if case .frame(let frame) = event { return frame }
                return nil
            }
        }
        for frame in frames where frame == [NordicOpcode.execute.rawValue] {
            await counter.willWriteControlPoint(frame)
        }
        try await inner.writeWithoutResponse(bytes, to: characteristic)
        for frame in frames where frame.first == NordicSerialOpcode.writeObject.rawValue {
            counter.add(frame.count - 1)
        }
    }

}

/// Hands out the byte connector's links wrapped in a `CountingSerialLink`, so every port opened
/// in a run (the first, each reopening after the port vanished, the rerun) adds to one counter.
struct CountingSerialConnector: Connector {
    let inner: any Connector
    let counter: UploadCounter

    func connect(to peer: PeerIdentity, deadline: ContinuousClock.Instant) async throws(LinkError) -> any Link {
        CountingSerialLink(try await inner.connect(to: peer, deadline: deadline), counter: counter)
    }
}
