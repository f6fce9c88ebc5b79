// The console framing of SMP over a UART shared with shell and log output (SMPSerialDecoder:
// markers, base64 lines, length and CRC). Any bytes, cut anywhere, give packets, text and drops;
// the packets do not depend on where the stream was cut, none is larger than the limit, and a
// packet found encodes (SMPSerialEncoder) into lines that decode to it again.
// Every byte costs the same, and a few lines or frames reach every state: shorter inputs, more runs.
// libFuzzer options: -max_len=1024
import DFUCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSMPSerialDecoder(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let options = input.byte()
    // Small limits reach the limit paths; the defaults are what dfu uses.
    let packetLimit = options & 1 == 0 ? SMPSerialFraming.maximumPacketSize : Int(input.uint16())
    let lineLimit: Int? = options & 2 == 0 ? nil : Int(input.byte())
    let textLimit = options & 4 == 0 ? 1024 : Int(input.byte())
    func decoder() -> SMPSerialDecoder {
        SMPSerialDecoder(maximumPacketSize: packetLimit, maximumLineLength: lineLimit, maximumTextChunk: textLimit)
    }
    let chunks = input.chunks()

    var cut = decoder()
    var packets: [[UInt8]] = []
    for chunk in chunks {
        for event in cut.receive(chunk) {
            switch event {
            case .packet(let packet):
                require(packet.count <= cut.maximumPacketSize, "packet of \(packet.count) bytes past \(cut.maximumPacketSize)")
                packets.append(packet)
            case .dropped(let reason):
                // The reason's own description (dfu's code). Not String(describing: event): the event has no
                // description of its own, and the runtime's reflection took a fifth of the time.
                _ = reason.description
            case .text:
                break
            }
        }
    }
    var whole = decoder()
    // An array, as the serial link hands the decoder what it read.
    let wholePackets = whole.receive(Array(chunks.joined())).compactMap { event -> [UInt8]? in
        if case .packet(let packet) = event { return packet }
        return nil
    }
    require(packets == wholePackets, "cutting the stream changed its packets")

    if let packet = packets.first, packet.count <= SMPSerialFraming.maximumPacketSize,
       let encoded = try? SMPSerialEncoder().encode(packet) {
        var fresh = SMPSerialDecoder()
        require(fresh.receive(encoded) == [.packet(packet)], "an encoded packet does not decode to itself")
    }
    return 0
}
