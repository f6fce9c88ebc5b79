/// Checks a Nordic DFU package the way a Secure DFU bootloader will (nrf_dfu_validation.c), before any
/// byte is sent. Per image:
/// - hash: SHA-256 of the .bin against the init packet's hash, which is stored byte-reversed;
/// - size: the init packet's app_size / sd_size / bl_size against the .bin (and, for SoftDevice +
///   bootloader, against the manifest's split);
/// - signature: ECDSA P-256 over the InitCommand bytes as they sit in the .dat, r and s stored
///   byte-reversed. A signature that is not 64 bytes, or of another type, fails even without a key.
///
/// Signing policy: without a key a signature is not checked, signed or not, as for MCUboot images.
/// With a key every image must be signed and verify, unless `allowUnsigned` lets unsigned ones through.
public enum NordicPackageVerifier {
    public static func verify(_ package: NordicPackage, key: PublicKey?, keySource: String = "the key",
                              allowUnsigned: Bool) throws(NordicPackageError) -> NordicVerificationReport {
        if let key, key.algorithm != .ecdsaP256 {
            throw .keyNotP256(path: keySource, algorithm: key.algorithm.rawValue)
        }
        var reports: [NordicVerificationReport.ImageReport] = []
        for image in package.images {
            reports.append(try verify(image, key: key, allowUnsigned: allowUnsigned))
        }
        return NordicVerificationReport(images: reports)
    }

    static func verify(_ image: NordicPackage.Image, key: PublicKey?,
                       allowUnsigned: Bool) throws(NordicPackageError) -> NordicVerificationReport.ImageReport {
        let command = image.initPacket.initCommand
        let digest = try sha256(image.firmware[...])
        let signature = image.initPacket.signature
        return .init(
            kind: image.kind, binFile: image.binFile, datFile: image.datFile,
            firmwareType: command.type ?? .application, fwVersion: command.fwVersion, hwVersion: command.hwVersion,
            sdReq: command.sdReq, appSize: command.appSize, softdeviceSize: command.sdSize,
            bootloaderSize: command.blSize, binSize: image.firmware.count, datSize: image.initPacket.bytes.count,
            isDebug: command.isDebug, sha256: digest, initPacketSHA256: command.sha256,
            signatureType: signature.map { $0.type == 0 ? "ECDSA P-256" : "unknown (\($0.type))" },
            hash: hashCheck(image, digest: digest),
            size: sizeCheck(image),
            signature: try signatureCheck(image, key: key, allowUnsigned: allowUnsigned))
    }

    private static func hashCheck(_ image: NordicPackage.Image, digest: [UInt8]) -> NordicVerificationReport.Check {
        let command = image.initPacket.initCommand
        guard let hashType = command.hashType else {
            return .failed(.hashUnsupported(part: image.kind, reason: "the init packet has no hash"))
        }
        guard hashType == .sha256, let stored = command.sha256 else {
            return .failed(.hashUnsupported(part: image.kind, reason: "the init packet's hash is \(hashType)"))
        }
        guard stored.count == SHA256.byteCount else {
            return .failed(.hashUnsupported(part: image.kind, reason: "the init packet's SHA-256 is \(stored.count) bytes, not 32"))
        }
        return stored == digest ? .passed : .failed(.hashMismatch(part: image.kind, expected: stored, computed: digest))
    }

    private static func sizeCheck(_ image: NordicPackage.Image) -> NordicVerificationReport.Check {
        let command = image.initPacket.initCommand
        let actual = image.firmware.count
        switch image.kind {
        case .application, .softdevice, .bootloader:
            let (value, name): (UInt32?, String) = switch image.kind {
                case .softdevice: (command.sdSize, "sd_size")
                case .bootloader: (command.blSize, "bl_size")
                default: (command.appSize, "app_size")
            }
            guard let value else {
                return .failed(.sizeMismatch(part: image.kind, reason: "the init packet has no \(name); the bootloader refuses it"))
            }
            guard Int(value) == actual else {
                return .failed(.sizeMismatch(part: image.kind, reason: "the init packet's \(name) is \(value) but \(image.binFile) is \(actual) bytes"))
            }
        case .softdeviceBootloader:
            guard let sd = command.sdSize, let bl = command.blSize else {
                return .failed(.sizeMismatch(part: image.kind, reason: "the init packet lacks sd_size or bl_size; the bootloader refuses it"))
            }
            guard Int(sd) + Int(bl) == actual else {
                return .failed(.sizeMismatch(part: image.kind, reason: "the init packet's sd_size \(sd) + bl_size \(bl) is not the \(actual) bytes of \(image.binFile)"))
            }
            if let manifestSD = image.manifestSoftdeviceSize, let manifestBL = image.manifestBootloaderSize,
               manifestSD != Int(sd) || manifestBL != Int(bl) {
                return .failed(.sizeMismatch(part: image.kind, reason: "manifest.json splits it as sd_size \(manifestSD) + bl_size \(manifestBL), the init packet as \(sd) + \(bl)"))
            }
        }
        return .passed
    }

    private static func signatureCheck(_ image: NordicPackage.Image, key: PublicKey?,
                                       allowUnsigned: Bool) throws(NordicPackageError) -> NordicVerificationReport.Check {
        guard let signature = image.initPacket.signature else {
            guard key != nil else { return .notChecked(reason: "the package is not signed; no key given") }
            return allowUnsigned ? .notChecked(reason: "the package is not signed; allowed by --allow-unsigned")
                                 : .failed(.unsigned(part: image.kind))
        }
        guard signature.type == 0 else { return .failed(.signatureTypeUnsupported(part: image.kind, type: signature.type)) }
        guard signature.bytes.count == 64 else {
            return .failed(.signatureMalformed(part: image.kind, length: signature.bytes.count))
        }
        guard let key else { return .notChecked(reason: "no key given") }
        let digest = try sha256(image.initPacket.signedBytes)
        let r = Array(signature.bytes[0 ..< 32].reversed())
        let s = Array(signature.bytes[32 ..< 64].reversed())
        let verified: Bool
        do {
            verified = try key.isValidSignature(ECDSASignature.der(r: r, s: s), forDigest: digest)
        } catch {
            throw cryptoFailure(error)
        }
        return verified ? .passed : .failed(.signatureInvalid(part: image.kind))
    }

    private static func sha256(_ bytes: ArraySlice<UInt8>) throws(NordicPackageError) -> [UInt8] {
        do { return try SHA256.hash(bytes) } catch { throw cryptoFailure(error) }
    }

    private static func cryptoFailure(_ error: ImageError) -> NordicPackageError {
        if case .cryptoFailure(let operation, let detail) = error { return .cryptoFailure(operation: operation, detail: detail) }
        return .cryptoFailure(operation: "checking a signature", detail: error.description)
    }
}
