// An SMP packet from a device (a UDP datagram, or what the frame assembler or a serial decoder
// hands on): header, CBOR body, the status in it, and each typed body dfu reads, each request body
// the virtual device reads, and the words an error is shown with. Every one returns or throws.
import DFUCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSMPResponse(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).remaining
    _ = try? SMPHeader(decoding: bytes)
    let packet: SMPPacket
    do {
        packet = try SMPPacket(decoding: Array(bytes))
    } catch {
        _ = String(describing: error)
        return 0
    }
    _ = String(describing: packet.header)
    let body = packet.body
    if case .failure(let error)? = try? SMPStatus(body: body) { _ = String(describing: error) }
    decode(BootloaderInfoResponse.self, body)
    decode(ImageSlotInfoResponse.self, body)
    decode(ImageStateResponse.self, body)
    decode(ImageUploadResponse.self, body)
    decode(MCUmgrParametersResponse.self, body)
    decode(OSEchoResponse.self, body)
    decode(OSInfoResponse.self, body)
    decode(SMPEmptyBody.self, body)
    // The virtual device decodes requests with the same types.
    decode(BootloaderInfoRequest.self, body)
    decode(ImageEraseRequest.self, body)
    decode(ImageSlotInfoRequest.self, body)
    decode(ImageStateReadRequest.self, body)
    decode(ImageStateWriteRequest.self, body)
    decode(ImageUploadRequest.self, body)
    decode(MCUmgrParametersRequest.self, body)
    decode(OSEchoRequest.self, body)
    decode(OSInfoRequest.self, body)
    decode(OSResetRequest.self, body)
    decode(SUITManifestListRequest.self, body)
    return 0
}

/// Decodes `body` as `Body`; a value that decodes must encode and decode to itself again.
private func decode<Body: SMPBody>(_ type: Body.Type, _ body: CBORMap) {
    switch try? Body.decodeResponse(body) {
    case .success(let value)?:
        require((try? Body(body: value.body)) == value, "\(Body.self) \(value) does not survive its own encoding")
    case .failure(let error)?:
        _ = String(describing: error)
    case nil:
        break
    }
}
