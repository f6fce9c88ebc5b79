// The CBOR decoder every SMP body passes through (DFUCore SMP/Wire/CBOR). Whatever the bytes, it
// returns a value or throws a CBORError, and a value it returns survives a round trip through the
// encoder: decoded again it is the same value.
import DFUCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCBORDecoder(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let options = input.byte()
    let bytes = input.rest()
    // Tight limits reach the limit checks with small inputs; the default ones are what SMP uses.
    let limits = options & 1 == 0 ? CBORDecoder.Limits.default
                                  : CBORDecoder.Limits(maxDepth: 4, maxItems: 32, maxSize: 256)
    let decoder = CBORDecoder(limits: limits)
    if let (value, consumed) = try? decoder.decodePrefix(bytes) {
        require(consumed > 0 && consumed <= bytes.count, "consumed \(consumed) of \(bytes.count)")
        let encoders = [CBOREncoder(), CBOREncoder(containerLength: .indefinite, keyOrder: .canonical)]
        let encoder = encoders[Int(options >> 1) % encoders.count]
        let again = try? CBORDecoder(limits: CBORDecoder.Limits(maxDepth: limits.maxDepth, maxItems: .max, maxSize: .max))
            .decode(encoder.encode(value))
        if encoder.keyOrder == .preserved {
            require(again == value, "round trip changed \(value) into \(String(describing: again))")
        } else {
            require(again != nil, "re-encoded \(value) does not decode")
        }
    }
    _ = try? decoder.decode(bytes)
    _ = try? decoder.decode(bytes, allowTrailingBytes: true)
    return 0
}
