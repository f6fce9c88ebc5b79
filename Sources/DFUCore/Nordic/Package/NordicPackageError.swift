/// Why a Nordic DFU package was refused. `part` is the manifest key (application, bootloader, …). Each
/// description says what is wrong and what to do; the tools exit 3 for all of them (`DFUError.package(_:)`).
public enum NordicPackageError: Error, Sendable, Equatable, CustomStringConvertible {
    case archive(ArchiveError)
    case manifestMissing
    case manifestInvalid(reason: String)
    /// The manifest names a file the zip does not hold.
    case missingFile(name: String, part: NordicImageKind)
    case initPacketInvalid(file: String, reason: String)
    /// The init packet's type is not what the manifest key says.
    case typeMismatch(part: NordicImageKind, initType: String)
    /// A hash other than SHA-256, or none: the bootloader accepts SHA-256 only.
    case hashUnsupported(part: NordicImageKind, reason: String)
    /// SHA-256 of the .bin differs from the init packet's hash. Both in the usual (sha256sum) order.
    case hashMismatch(part: NordicImageKind, expected: [UInt8], computed: [UInt8])
    /// The init packet's size field is missing or differs from the .bin.
    case sizeMismatch(part: NordicImageKind, reason: String)
    case signatureMalformed(part: NordicImageKind, length: Int)
    case signatureTypeUnsupported(part: NordicImageKind, type: UInt64)
    case signatureInvalid(part: NordicImageKind)
    /// A key was given, the part is not signed, and `--allow-unsigned` was not.
    case unsigned(part: NordicImageKind)
    /// Nordic packages are signed with ECDSA P-256; the key given is another kind.
    case keyNotP256(path: String, algorithm: String)
    case cryptoFailure(operation: String, detail: String)

    public var description: String {
        switch self {
        case .archive(let error):
            return "cannot read the DFU package: \(error.description)"
        case .manifestMissing:
            return "not a Nordic DFU package: the zip has no manifest.json. Make the package with 'nrfutil pkg generate'."
        case .manifestInvalid(let reason):
            return "the package's manifest.json is invalid: \(reason). Make the package again with 'nrfutil pkg generate'."
        case .missingFile(let name, let part):
            return "the manifest's \(part) names \(name), which the zip does not hold. The package is incomplete; make it again."
        case .initPacketInvalid(let file, let reason):
            return "init packet \(file) is invalid: \(reason). The package is damaged or not made by nrfutil; make it again."
        case .typeMismatch(let part, let initType):
            return "the manifest lists \(part) but its init packet says \(initType). Make the package again with 'nrfutil pkg generate'."
        case .hashUnsupported(let part, let reason):
            return "\(part): \(reason); Secure DFU bootloaders accept SHA-256 only. Make the package with nrfutil 6."
        case .hashMismatch(let part, _, _):
            return "\(part) firmware hash mismatch: the SHA-256 of the .bin differs from the init packet's hash. The firmware was modified after packaging; do not flash it."
        case .sizeMismatch(let part, let reason):
            return "\(part): \(reason). The package is inconsistent; make it again."
        case .signatureMalformed(let part, let length):
            return "\(part): the init packet's signature is \(length) bytes, not the 64 of ECDSA P-256 (r, s). The bootloader refuses it; sign the package again."
        case .signatureTypeUnsupported(let part, let type):
            return "\(part): signature type \(type == 1 ? "ED25519" : String(type)) is not supported; Secure DFU bootloaders check ECDSA P-256. Sign with 'nrfutil pkg generate --key-file'."
        case .signatureInvalid(let part):
            return "\(part): ECDSA P-256 signature does not verify with the given key. The package was signed with another key or modified after signing; do not flash it."
        case .unsigned(let part):
            return "\(part) is not signed, but --key was given. A bootloader that requires signed updates refuses it; sign it with 'nrfutil pkg generate --key-file', or pass --allow-unsigned if the bootloader accepts unsigned updates."
        case .keyNotP256(let path, let algorithm):
            return "cannot use key \(path): it is an \(algorithm) key, and Nordic DFU packages are signed with ECDSA P-256. Pass the public key of the package's signing key (nrfutil keys display --key pk)."
        case .cryptoFailure(let operation, let detail):
            return "OpenSSL failed while \(operation): \(detail). Check the libcrypto installation (libssl3); this is not a problem with the package."
        }
    }
}
