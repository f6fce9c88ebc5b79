/// The serial transport in front of the request handler (nrf_dfu_serial_uart.c / _usb.c
/// `on_rx_complete`, nrf_dfu_serial.c `nrf_dfu_serial_on_packet_received`,
/// `dfu_req_handler_rsp_clbk`, `response_send`, and the variants' `rsp_send`). It runs in the
/// receive interrupt: it decodes SLIP into a block of its receive pool, parses each frame into a
/// request for the scheduler, and takes a new block for the next frame. The answers come back from
/// the main loop through `answer(to:)`.
struct SerialDFUTransport: Sendable, Hashable {
    /// What one received byte did.
    enum ByteResult: Sendable, Hashable {
        /// Nothing yet (`NRF_ERROR_BUSY`).
        case pending
        /// The decoder's buffer is full: the byte is lost, and so is every later one.
        case bufferFull
        /// A bad escape: the frame is being dropped up to the next END.
        case invalidEscape
        /// A frame ended: hand `request` to the scheduler, then call `takeNextBuffer()`.
        case frame(SerialRequest)
    }

    let variant: SDKSerialVariant
    private(set) var pool: RXBufferPool
    private(set) var decoder: SLIPDecoder
    /// `m_slip.p_buffer`: the block the decoder fills.
    private(set) var block: Int
    /// `pkt_notif_target`, `pkt_notif_target_count`.
    private(set) var receipts = PacketReceiptCounter()

    /// `*_dfu_transport_init`: the pool, its first block for the decoder, `buffer_len` = the MTU.
    init(variant: SDKSerialVariant, receiveBuffers: Int) {
        self.variant = variant
        var pool = RXBufferPool(count: receiveBuffers, bufferLength: variant.slipMTU)
        block = pool.allocate() ?? 0
        self.pool = pool
        decoder = SLIPDecoder(bufferLength: variant.slipMTU)
    }

    /// `on_rx_complete` for one byte, up to the hand-over of a complete frame.
    mutating func receive(_ byte: UInt8) -> ByteResult {
        let current = block
        var decoder = self.decoder
        let result = pool.withBlock(current) { decoder.add(byte, into: &$0) }
        self.decoder = decoder
        switch result {
        case .busy: return .pending
        case .noMemory: return .bufferFull
        case .invalidData: return .invalidEscape
        case .frameEnded: return .frame(parse(frameLength: decoder.currentIndex))
        }
    }

    /// After a frame: a new block for the decoder. Without one (`nrf_balloc_alloc` returns NULL) the
    /// decoder keeps its block and its index, so the next frame is appended to the one just handed
    /// over, op code and all. Returns whether a block was found.
    mutating func takeNextBuffer() -> Bool {
        guard let next = pool.allocate() else { return false }
        block = next
        decoder.restart()
        return true
    }

    /// `payload_free`: the request handler is done with a Write's buffer.
    mutating func free(_ payload: SerialRequest.Payload) { pool.free(payload.block) }

    /// A Write's payload as the request handler reads it now.
    func data(of payload: SerialRequest.Payload) -> [UInt8] {
        pool.read(payload.block, from: 1, count: payload.length)
    }

    /// `dfu_req_handler_rsp_clbk` and `response_send`: the SLIP frame to send for `response`, or
    /// nil (a Write answered only when a receipt is due).
    mutating func answer(to response: DFUResponse) -> [UInt8]? {
        receipts.answer(for: response).map { SLIP.encode($0.serialBytes) }
    }

    /// `nrf_dfu_serial_on_packet_received`. Parameters are read from the buffer whatever the frame's
    /// length, so a short frame takes stale bytes from the buffer's earlier use. Every buffer but a
    /// Write's is freed at once (before the request is handled: the request holds copies).
    private mutating func parse(frameLength: Int) -> SerialRequest {
        let bytes = pool.read(block, from: 0, count: 6)
        func parameter(_ index: Int) -> UInt8 { 1 + index < bytes.count ? bytes[1 + index] : 0 }
        var request = DFURequest(opCode: bytes.first ?? 0)
        var payload: SerialRequest.Payload?
        switch request.opCode {
        case DFUOpCode.firmwareVersion:
            request.imageNumber = parameter(0)
        case DFUOpCode.setReceiptNotification:
            receipts.set(UInt16(parameter(0)) | UInt16(parameter(1)) << 8)
        case DFUOpCode.select:
            request.objectType = parameter(0)
        case DFUOpCode.create:
            // Reset the receipt count on Create, here, before earlier requests are handled.
            receipts.restart()
            request.objectType = parameter(0)
            request.objectSize = (0 ..< 4).reduce(UInt32(0)) { $0 | UInt32(parameter(1 + $1)) << UInt32($1 * 8) }
        case DFUOpCode.write:
            payload = SerialRequest.Payload(block: block, length: Int(UInt16(truncatingIfNeeded: frameLength - 1)))
        case DFUOpCode.mtuGet:
            request.mtuSize = UInt16(truncatingIfNeeded: variant.slipMTU)
        case DFUOpCode.ping:
            request.pingID = parameter(0)
        default:
            break
        }
        if payload == nil { pool.free(block) }
        return SerialRequest(request: request, payload: payload, frameLength: frameLength)
    }
}
