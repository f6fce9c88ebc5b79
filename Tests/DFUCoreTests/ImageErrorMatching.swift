import DFUCore
import Testing

/// The `ImageError` a call ended with, or nil if it returned. Any other error is a test failure: the
/// API under test throws `ImageError` only (the compiler checks that too, through typed throws).
func thrownError<T>(_ body: () throws -> T) -> ImageError? {
    do {
        _ = try body()
        return nil
    } catch let error as ImageError {
        return error
    } catch {
        Issue.record("expected an ImageError, got \(error)")
        return nil
    }
}

/// Why `MCUbootImage(bytes:)` refused `bytes`, or nil if it parsed.
func parseError(_ bytes: [UInt8]) -> ImageError? {
    thrownError { try MCUbootImage(bytes: bytes) }
}

/// Why `ImageVerifier.verify` threw for `bytes`, or nil if it returned a report.
func verifyError(_ bytes: [UInt8], key: PublicKey? = nil) -> ImageError? {
    thrownError { try ImageVerifier.verify(bytes: bytes, key: key) }
}

extension ImageError {
    /// The case name, so a test can ask for "truncated" without restating every offset.
    var caseName: String {
        switch self {
        case .truncated: return "truncated"
        case .badMagic: return "badMagic"
        case .invalidField: return "invalidField"
        case .badTLVInfoMagic: return "badTLVInfoMagic"
        case .missingHash: return "missingHash"
        case .hashMismatch: return "hashMismatch"
        case .signatureMissing: return "signatureMissing"
        case .signatureInvalid: return "signatureInvalid"
        case .keyHashMismatch: return "keyHashMismatch"
        case .keyUnreadable: return "keyUnreadable"
        case .keyUnusable: return "keyUnusable"
        case .unsupportedImage: return "unsupportedImage"
        case .invalidCompression: return "invalidCompression"
        case .decompressionFailed: return "decompressionFailed"
        case .decompressedHashMismatch: return "decompressedHashMismatch"
        case .decompressedSignatureMissing: return "decompressedSignatureMissing"
        case .decompressedSignatureInvalid: return "decompressedSignatureInvalid"
        case .cryptoFailure: return "cryptoFailure"
        }
    }
}
