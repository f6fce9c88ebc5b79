import DFUCore
import DeviceSim

/// The serial server's side of a pseudo-terminal, passing every chunk the host wrote on unchanged
/// and counting the image data of each upload request in them into the run's `UploadCounter` as
/// the server reads them, before it acts on them: on a serial line, as on UDP (`UDPRelay`), the
/// wire is the one place where what a dying `dfu` sent can be counted.
final class CountingSimSerialPort: SimSerialPort {
    let received: AsyncStream<[UInt8]>
    private let inner: any SimSerialPort
    private let reader: Task<Void, Never>

    init(_ inner: any SimSerialPort, framing: SMPStreamFraming, counter: UploadCounter) {
        self.inner = inner
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
        received = stream
        reader = Task {
            var framer = SMPStreamFramer(framing: framing)
            for await chunk in inner.received {
                for case .packet(let bytes) in framer.receive(chunk) {
                    if let packet = try? SMPPacket(decoding: bytes), let data = UploadData.bytes(in: packet) {
                        counter.add(data)
                    }
                }
                continuation.yield(chunk)
            }
            continuation.finish()
        }
    }

    func send(_ bytes: [UInt8]) async -> Bool {
        await inner.send(bytes)
    }

    func close() async {
        await inner.close()
        reader.cancel()
    }
}
