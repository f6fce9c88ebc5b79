/// Why a compressed image's body did not decompress into the image its TLVs describe. MCUboot
/// (sdk-mcuboot `boot/zephyr/decompression.c`) refuses such an image at boot and erases it.
public enum DecompressionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The body is shorter than the 2-byte LZMA2 properties, or the stream ends before its end marker.
    case truncated
    /// The properties bytes are outside the table compression_format.md gives.
    case badProperties
    /// liblzma refused the properties (lc + lp > 4, for one).
    case unsupportedProperties
    /// The stream is not valid LZMA2.
    case corrupt
    /// The stream yields more than DECOMP_SIZE bytes.
    case tooLong(limit: Int)
    /// It yields fewer bytes than DECOMP_SIZE says.
    case sizeMismatch(expected: Int, produced: Int)
    /// liblzma failed at something that should not fail (out of memory).
    case library(code: Int)

    public var description: String {
        switch self {
        case .truncated: return "the compressed body ends before its LZMA2 end marker"
        case .badProperties: return "the compressed body's 2-byte LZMA2 properties are invalid"
        case .unsupportedProperties: return "liblzma does not support the compressed body's LZMA2 properties"
        case .corrupt: return "the compressed body is not a valid LZMA2 stream"
        case .tooLong(let limit): return "the compressed body decompresses to more than DECOMP_SIZE (\(limit) bytes)"
        case .sizeMismatch(let expected, let produced):
            return "the compressed body decompresses to \(produced) bytes, but DECOMP_SIZE says \(expected)"
        case .library(let code): return "liblzma failed (lzma_ret \(code))"
        }
    }
}
