import DeviceSim
import Synchronization
import Transport

/// A serial line in memory for tests: the device's end is a `SimSerialPort` (what
/// `VirtualDeviceSerialServer` serves on), the client's end a byte `Link` from `connector`, as a
/// pty's two sides. The device end may close and open again (a USB port vanishing while its board
/// resets); a client connects to whichever device end is open, waiting for one until its deadline.
final class SerialPipe: Sendable {
    /// The characteristic the client's byte links carry bytes on.
    let characteristic: CharacteristicID
    private let state = Mutex(State())

    private struct State {
        var device: DeviceEnd?
        var client: ClientEnd?
        var generation = LinkGeneration(0)
        var bytesFromClient = 0
    }

    struct DeviceEnd {
        let id: Int
        let received: AsyncStream<[UInt8]>.Continuation
    }

    struct ClientEnd {
        let generation: LinkGeneration
        let events: AsyncStream<LinkEvent>.Continuation
    }

    init(characteristic: CharacteristicID) { self.characteristic = characteristic }

    /// Bytes the client has written so far.
    var bytesFromClient: Int { state.withLock { $0.bytesFromClient } }

    /// Opens the device's end (the port appears).
    func openDeviceEnd() -> any SimSerialPort {
        let (received, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        let id = state.withLock { state in
            state.device?.received.finish()
            let id = (state.device?.id ?? 0) + 1
            state.device = DeviceEnd(id: id, received: continuation)
            return id
        }
        return Port(pipe: self, id: id, received: received)
    }

    /// A connector whose links are the client's end.
    var connector: Connector { Connector(pipe: self) }

    fileprivate func deviceSend(_ bytes: [UInt8], from id: Int) -> Bool {
        state.withLock { state in
            guard state.device?.id == id else { return false }
            state.client?.events.yield(LinkEvent(generation: state.client?.generation ?? LinkGeneration(0),
                                                 kind: .notification(characteristic, bytes)))
            return true
        }
    }

    fileprivate func closeDeviceEnd(_ id: Int) {
        state.withLock { state in
            guard let device = state.device, device.id == id else { return }
            device.received.finish()
            state.device = nil
            if let client = state.client {
                client.events.yield(LinkEvent(generation: client.generation, kind: .disconnected(.other("the port went away"))))
                client.events.finish()
                state.client = nil
            }
        }
    }

    fileprivate func attachClient() -> ClientLink? {
        state.withLock { state in
            guard state.device != nil else { return nil }
            state.client?.events.finish()
            state.generation = state.generation.next
            let (events, continuation) = AsyncStream.makeStream(of: LinkEvent.self)
            state.client = ClientEnd(generation: state.generation, events: continuation)
            return ClientLink(pipe: self, generation: state.generation, events: events)
        }
    }

    fileprivate func clientWrite(_ bytes: [UInt8], generation: LinkGeneration) throws(LinkError) {
        try state.withLock { (state: inout State) throws(LinkError) in
            guard let client = state.client, client.generation == generation, let device = state.device else {
                throw .disconnected(.other("the port went away"))
            }
            state.bytesFromClient += bytes.count
            device.received.yield(bytes)
        }
    }

    fileprivate func clientClose(_ generation: LinkGeneration) {
        state.withLock { state in
            guard let client = state.client, client.generation == generation else { return }
            client.events.yield(LinkEvent(generation: generation, kind: .disconnected(.localHostTerminated)))
            client.events.finish()
            state.client = nil
        }
    }

    struct Port: SimSerialPort {
        let pipe: SerialPipe
        let id: Int
        let received: AsyncStream<[UInt8]>
        func send(_ bytes: [UInt8]) async -> Bool { pipe.deviceSend(bytes, from: id) }
        func close() async { pipe.closeDeviceEnd(id) }
    }

    struct Connector: Transport.Connector {
        let pipe: SerialPipe
        func connect(to peer: PeerIdentity, deadline: ContinuousClock.Instant) async throws(LinkError) -> any Link {
            while true {
                if let link = pipe.attachClient() { return link }
                guard ContinuousClock.now < deadline else { throw .timeout }
                do { try await Task.sleep(for: .milliseconds(5)) } catch { throw .cancelled }
            }
        }
    }

    final class ClientLink: Link {
        let parameters: LinkParameters
        let services: [GATTService]
        let events: AsyncStream<LinkEvent>
        private let pipe: SerialPipe

        init(pipe: SerialPipe, generation: LinkGeneration, events: AsyncStream<LinkEvent>) {
            self.pipe = pipe
            self.events = events
            parameters = LinkParameters(generation: generation, peer: PeerIdentity("serial:/dev/ttyTEST"), attMTU: 4099,
                                        maxWriteWithoutResponse: 4096, isConnectionless: true)
            services = DatagramGATTFace(service: ServiceID(BluetoothUUID(high: 1, low: 1)), characteristic: pipe.characteristic).services
        }

        func writeWithoutResponse(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
            try pipe.clientWrite(bytes, generation: parameters.generation)
        }
        func write(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
            throw .notSupported(characteristic, missing: .write)
        }
        func read(_ characteristic: CharacteristicID) async throws(LinkError) -> [UInt8] {
            throw .notSupported(characteristic, missing: .read)
        }
        func subscribe(_ characteristic: CharacteristicID) async throws(LinkError) {}
        func disconnect() async { pipe.clientClose(parameters.generation) }
    }
}
