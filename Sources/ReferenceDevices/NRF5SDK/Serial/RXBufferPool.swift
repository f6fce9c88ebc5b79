/// The transport's receive buffers: `NRF_BALLOC_DEF(m_payload_pool, SLIP_MTU + 1, …_RX_BUFFERS)`
/// (nrf_dfu_serial_uart.c, nrf_dfu_serial_usb.c) and nrf_balloc.c. Free blocks sit on a stack:
/// `nrf_balloc_init` pushes their indices from last to first, so block 0 comes out first, and the
/// block freed last is the next one handed out. The release build checks nothing
/// (`NRF_BALLOC_CONFIG_DEBUG_ENABLED` 0): a block freed twice is on the stack twice.
///
/// A block holds what the SLIP decoder writes from `OPCODE_OFFSET` (3) on, so that the payload after
/// the op code is word-aligned for flash writes; it is modelled from there, `bufferLength` bytes.
/// Its content stays when it is freed and handed out again (memory starts zeroed, as .bss is).
struct RXBufferPool: Sendable, Hashable {
    private(set) var blocks: [[UInt8]]
    /// The free stack, top last.
    private(set) var freeStack: [Int]

    init(count: Int, bufferLength: Int) {
        blocks = Array(repeating: [UInt8](repeating: 0, count: bufferLength), count: max(1, count))
        freeStack = Array((0 ..< max(1, count)).reversed())
    }

    /// `nrf_balloc_alloc`: nil when every block is taken.
    mutating func allocate() -> Int? { freeStack.popLast() }

    /// `nrf_balloc_free`.
    mutating func free(_ block: Int) { freeStack.append(block) }

    var available: Int { freeStack.count }

    /// Stores a decoded byte (the decoder's `p_buffer[current_index]`).
    mutating func withBlock<T>(_ block: Int, _ body: (inout [UInt8]) -> T) -> T {
        body(&blocks[block])
    }

    /// `count` bytes of `block` from `start`, as a pointer into it would read them now; bytes past
    /// the block are taken as 0 (decided: the SDK reads whatever RAM follows).
    func read(_ block: Int, from start: Int, count: Int) -> [UInt8] {
        guard block >= 0, block < blocks.count, count > 0 else { return [] }
        let bytes = blocks[block]
        let available = max(0, min(count, bytes.count - start))
        var out = available > 0 ? Array(bytes[start ..< start + available]) : []
        if out.count < count { out += [UInt8](repeating: 0, count: count - out.count) }
        return out
    }
}
