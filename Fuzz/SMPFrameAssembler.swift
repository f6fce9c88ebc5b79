// SMP frames reassembled from notifications or datagrams cut anywhere (SMPFrameAssembler, as the
// BLE and UDP links use it). Every payload completes a frame, waits for more or throws; a frame it
// completes is exactly its header's size and decodes as a frame again.
import DFUCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSMPFrameAssembler(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    // A device's small buf_size, or the default (the largest frame a header can announce).
    let limit = input.byte()
    var assembler = limit & 1 == 0 ? SMPFrameAssembler() : SMPFrameAssembler(maximumFrameSize: Int(limit))
    for payload in input.chunks() {
        if payload.first == 0xFF && payload.count == 1 {
            // A disconnect in the middle of a frame.
            assembler.reset()
            continue
        }
        do {
            if let frame = try assembler.append(payload) {
                let bytes = frame.encoded()
                require(bytes.count == SMPHeader.size + Int(frame.header.length),
                        "frame of \(bytes.count) bytes, header says \(frame.header.length)")
                require(bytes.count <= assembler.maximumFrameSize, "frame of \(bytes.count) bytes past the limit")
                require((try? SMPFrame(decoding: bytes)) == frame, "assembled frame does not decode again")
                require(assembler.isIdle, "bytes held after a complete frame")
                _ = try? SMPPacket(frame: frame)
            }
        } catch {
            _ = String(describing: error)
            require(assembler.isIdle, "bytes held after an error")
        }
        // Less than a header is held whatever the limit: the limit is checked against the header.
        require(assembler.bufferedByteCount <= max(assembler.maximumFrameSize, SMPHeader.size - 1),
                "holds \(assembler.bufferedByteCount) bytes")
    }
    return 0
}
