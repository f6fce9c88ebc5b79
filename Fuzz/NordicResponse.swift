// What a Nordic Secure DFU bootloader or buttonless application answers: a Control Point
// notification (NordicResponse), a serial bootloader's answer (NordicSerialResponse, over UART/USB
// after SLIP) and a buttonless indication. Each decodes or throws; a decoded answer is exactly the
// bytes it came from (lengths are checked exactly, unknown codes kept), and its words can be shown.
import DFUCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNordicResponse(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    let bytes = Array(FuzzInput(data, size).remaining)
    do {
        let response = try NordicResponse(decoding: bytes)
        _ = response.description
        require(response.encoded == bytes, "control point answer \(response) re-encodes differently")
    } catch {
        _ = String(describing: error)
    }
    do {
        let response = try NordicSerialResponse(decoding: bytes)
        _ = response.description
        require(response.encoded == bytes, "serial answer \(response) re-encodes differently")
    } catch {
        _ = String(describing: error)
    }
    if bytes.count > 1, let status = NordicButtonless.status(of: bytes, answering: bytes[1]) {
        _ = status.description
    }
    return 0
}
