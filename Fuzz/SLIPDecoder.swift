// SLIP framing on a Nordic serial bootloader's line (SLIPDecoder), cut anywhere: frames and drops
// only, none longer than the limit, the same wherever the stream was cut; a frame found encodes
// (SLIPEncoder) into bytes that decode to it again. Each frame then goes to the serial answer decoder.
// Every byte costs the same, and a few lines or frames reach every state: shorter inputs, more runs.
// libFuzzer options: -max_len=512
import DFUCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSLIPDecoder(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let options = input.byte()
    // dfu's answer limit, or another the device model uses.
    let limit = options & 1 == 0 ? NordicSerialLimits.maximumResponseFrameSize : Int(input.byte())
    let chunks = input.chunks()

    var cut = SLIPDecoder(maximumFrameSize: limit)
    var events: [SLIPDecoder.Event] = []
    for chunk in chunks {
        for event in cut.receive(chunk) {
            if case .frame(let frame) = event {
                require(frame.count <= limit, "frame of \(frame.count) bytes past \(limit)")
                if let answer = try? NordicSerialResponse(decoding: frame) { _ = answer.description }
            }
            events.append(event)
        }
        require(cut.bufferedByteCount <= limit, "holds \(cut.bufferedByteCount) bytes past \(limit)")
    }
    var whole = SLIPDecoder(maximumFrameSize: limit)
    require(whole.receive(chunks.joined()) == events, "cutting the stream changed its frames")

    for case .frame(let frame) in events.prefix(4) {
        var fresh = SLIPDecoder(maximumFrameSize: limit)
        require(fresh.receive(SLIPEncoder.encode(frame)) == [.frame(frame)], "an encoded frame does not decode to itself")
    }
    return 0
}
