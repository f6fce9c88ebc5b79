// The raw SMP stream of Zephyr's raw UART transport and MCUboot's raw serial recovery
// (SMPRawStreamDecoder: no framing, header lengths only). Any bytes, cut anywhere, give packets and
// skipped runs; a packet is a whole frame within the limit, and the packets do not depend on where
// the stream was cut.
// Every byte costs the same, and a few lines or frames reach every state: shorter inputs, more runs.
// libFuzzer options: -max_len=1024
import DFUCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSMPRawStreamDecoder(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let limit = input.byte() & 1 == 0 ? SMPHeader.size + Int(UInt16.max) : Int(input.uint16())
    let chunks = input.chunks()

    var cut = SMPRawStreamDecoder(maximumPacketSize: limit)
    var packets: [[UInt8]] = []
    for chunk in chunks {
        if chunk.count == 1 && chunk.first == 0xFF {
            // The line went quiet mid-packet: the caller's timer resets the decoder.
            _ = cut.reset()
            continue
        }
        for event in cut.receive(chunk) {
            if case .packet(let packet) = event {
                require(packet.count <= cut.maximumPacketSize, "packet of \(packet.count) bytes past the limit")
                require((try? SMPFrame(decoding: packet)) != nil, "a packet that is not a frame")
                packets.append(packet)
            }
        }
    }
    if !chunks.contains([0xFF]) {
        var whole = SMPRawStreamDecoder(maximumPacketSize: limit)
        let wholePackets = whole.receive(chunks.joined()).compactMap { event -> [UInt8]? in
            if case .packet(let packet) = event { return packet }
            return nil
        }
        require(packets == wholePackets, "cutting the stream changed its packets")
    }
    return 0
}
