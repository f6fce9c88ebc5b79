// A Nordic init packet (.dat: dfu-cc.proto `Packet`, hand-decoded protobuf: NordicInitPacket) as
// the package reader takes it from the zip. It decodes or throws; what it decodes says where the
// InitCommand sits, inside the bytes, and its errors can be shown.
import DFUCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNordicInitPacket(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    let bytes = Array(FuzzInput(data, size).remaining)
    do {
        let packet = try NordicInitPacket(bytes: bytes, file: "fuzz.dat")
        require(packet.initCommandRange.lowerBound >= 0 && packet.initCommandRange.upperBound <= bytes.count,
                "InitCommand range \(packet.initCommandRange) outside \(bytes.count) bytes")
        _ = packet.signedBytes
        _ = String(describing: packet)
    } catch {
        _ = String(describing: error)
    }
    return 0
}
