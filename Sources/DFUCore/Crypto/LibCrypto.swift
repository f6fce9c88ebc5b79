// All pointer work with libcrypto lives in this file and, for image decryption, in
// LibCrypto+Decryption.swift (STYLE.md, "In dfu"): `grep -rl "import COpenSSL"`
// lists nothing else. Each C object has a `final class` owner that frees it in `deinit` and is reached
// only through a scoped `withUnsafePointer`; a failed call turns OpenSSL's error queue into an
// `OpenSSLError` at the call. Nothing here logs, and no error text carries key or image bytes.
internal import COpenSSL

/// A libcrypto call failed for a reason other than "the signature does not verify".
struct OpenSSLError: Error, Sendable {
    /// What we were doing, completing "while …".
    let operation: String
    /// OpenSSL's error queue, oldest first.
    let detail: String

    /// Drains the thread's error queue into an error for `operation`.
    init(_ operation: String) {
        self.operation = operation
        self.detail = LibCrypto.drainErrorQueue()
    }

    var imageError: ImageError { .cryptoFailure(operation: operation, detail: detail) }
}

enum LibCrypto {
    static let sha256Length = 32

    /// OpenSSL's queued errors, oldest first, as one line. Empties the queue so later calls start clean.
    static func drainErrorQueue() -> String {
        var messages: [String] = []
        var code = ERR_get_error()
        while code != 0 {
            defer { code = ERR_get_error() }
            // Keep a few; a long queue only repeats the cause.
            guard messages.count < 4 else { continue }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
                                   as: UTF8.self))
        }
        return messages.isEmpty ? "no detail in the OpenSSL error queue" : messages.joined(separator: "; ")
    }

    /// One-shot SHA-256 of `bytes`.
    static func sha256(_ bytes: ArraySlice<UInt8>) throws(OpenSSLError) -> [UInt8] {
        ERR_clear_error()
        var ok: Int32 = 0
        let digest = [UInt8](unsafeUninitializedCapacity: sha256Length) { out, initialized in
            var length: UInt32 = 0
            ok = bytes.withUnsafeBufferPointer { input in
                EVP_Digest(input.baseAddress, input.count, out.baseAddress, &length, EVP_sha256(), nil)
            }
            initialized = ok == 1 && Int(length) == sha256Length ? sha256Length : 0
        }
        guard ok == 1, digest.count == sha256Length else { throw OpenSSLError("computing SHA-256") }
        return digest
    }
}

// MARK: - PEM

/// Why a PEM file did not give a public key. Labels are safe to show; bodies are never kept.
enum PEMKeyError: Error, Sendable {
    case noPEMBlock
    case privateKey(label: String)
    case unexpectedLabel(String)
    case undecodable(label: String, detail: String)
    case library(OpenSSLError)
}

extension LibCrypto {
    /// The first PEM block of `pem`, decoded as `PUBLIC KEY` (SubjectPublicKeyInfo) or `RSA PUBLIC KEY`
    /// (PKCS#1). Private keys are refused without decoding them, and every PEM body buffer is wiped.
    static func decodePublicKeyPEM(_ pem: [UInt8]) throws(PEMKeyError) -> EVPKey {
        let bio: MemoryBIO
        do { bio = try MemoryBIO(copying: pem) } catch { throw .library(error) }
        ERR_clear_error()
        var namePointer: UnsafeMutablePointer<CChar>?
        var headerPointer: UnsafeMutablePointer<CChar>?
        var dataPointer: UnsafeMutablePointer<UInt8>?
        var length = 0
        let ok = bio.withUnsafePointer { PEM_read_bio($0, &namePointer, &headerPointer, &dataPointer, &length) }
        defer {
            c_openssl_free(namePointer)
            c_openssl_free(headerPointer)
            c_openssl_clear_free(dataPointer, max(0, length))
        }
        guard ok == 1, let namePointer, let dataPointer, length > 0 else {
            _ = drainErrorQueue()
            throw .noPEMBlock
        }
        let label = String(cString: namePointer)
        let der = UnsafeBufferPointer(start: dataPointer, count: length)
        let key: EVPKey?
        switch label {
        case "PUBLIC KEY": key = EVPKey.decode(subjectPublicKeyInfo: der)
        case "RSA PUBLIC KEY": key = EVPKey.decode(rsaPublicKey: der)
        case _ where label.hasSuffix("PRIVATE KEY"): throw .privateKey(label: label)
        default: throw .unexpectedLabel(label)
        }
        guard let key else { throw .undecodable(label: label, detail: drainErrorQueue()) }
        return key
    }
}

// MARK: - C object owners

/// Owns a memory BIO holding its own copy of the input, so it does not depend on a Swift buffer's lifetime.
final class MemoryBIO {
    private let pointer: OpaquePointer

    init(copying bytes: [UInt8]) throws(OpenSSLError) {
        ERR_clear_error()
        guard bytes.count <= Int(Int32.max), let bio = BIO_new(BIO_s_mem()) else {
            throw OpenSSLError("creating a memory BIO")
        }
        pointer = bio
        let written = bytes.withUnsafeBytes { BIO_write(bio, $0.baseAddress, Int32($0.count)) }
        guard bytes.isEmpty || written == Int32(bytes.count) else { throw OpenSSLError("filling a memory BIO") }
    }

    deinit { BIO_free(pointer) }

    func withUnsafePointer<R, E: Error>(_ body: (OpaquePointer) throws(E) -> R) throws(E) -> R {
        defer { withExtendedLifetime(self) {} }
        return try body(pointer)
    }
}

/// The kinds of EVP_PKEY dfu tells apart; anything else is reported by its OpenSSL id.
enum EVPKeyType: Equatable {
    case ec(curve: String)
    case ed25519
    case rsa(bits: Int)
    case other(id: Int32)
}

/// How a signature relates to the 32-byte image digest, following MCUboot's bootutil_verify_sig.
enum DigestSignatureScheme {
    /// ECDSA over the SHA-256 digest, DER signature.
    case ecdsaSHA256
    /// RSASSA-PSS, SHA-256, MGF1-SHA-256, fixed salt length.
    case rsaPSSSHA256(saltLength: Int32)
    /// Pure Ed25519 with the digest as the whole message, 64-byte raw signature.
    case ed25519DigestAsMessage
}

/// Owns one EVP_PKEY holding a public key.
final class EVPKey {
    private let pointer: OpaquePointer

    init(owning pointer: OpaquePointer) { self.pointer = pointer }

    /// Decodes DER SubjectPublicKeyInfo; nil (error queue set) if it is not one, or has trailing bytes.
    static func decode(subjectPublicKeyInfo der: UnsafeBufferPointer<UInt8>) -> EVPKey? {
        decodeWhole(der) { d2i_PUBKEY(nil, &$0, $1) }.map(EVPKey.init(owning:))
    }

    /// Decodes DER PKCS#1 RSAPublicKey (`BEGIN RSA PUBLIC KEY`).
    static func decode(rsaPublicKey der: UnsafeBufferPointer<UInt8>) -> EVPKey? {
        decodeWhole(der) { d2i_PublicKey(EVP_PKEY_RSA, nil, &$0, $1) }.map(EVPKey.init(owning:))
    }

    static func decode(subjectPublicKeyInfo der: [UInt8]) -> EVPKey? {
        der.withUnsafeBufferPointer { decode(subjectPublicKeyInfo: $0) }
    }

    static func decode(rsaPublicKey der: [UInt8]) -> EVPKey? {
        der.withUnsafeBufferPointer { decode(rsaPublicKey: $0) }
    }

    deinit { EVP_PKEY_free(pointer) }

    func withUnsafePointer<R, E: Error>(_ body: (OpaquePointer) throws(E) -> R) throws(E) -> R {
        defer { withExtendedLifetime(self) {} }
        return try body(pointer)
    }

    /// d2i functions advance the input pointer; a key followed by junk is refused, not silently cut.
    private static func decodeWhole(
        _ der: UnsafeBufferPointer<UInt8>,
        with decode: (inout UnsafePointer<UInt8>?, Int) -> OpaquePointer?
    ) -> OpaquePointer? {
        guard let start = der.baseAddress, !der.isEmpty else { return nil }
        var cursor: UnsafePointer<UInt8>? = start
        guard let key = decode(&cursor, der.count) else { return nil }
        guard cursor == start + der.count else {
            EVP_PKEY_free(key)
            return nil
        }
        return key
    }

    var type: EVPKeyType {
        withUnsafePointer { key in
            switch EVP_PKEY_get_base_id(key) {
            case EVP_PKEY_EC:
                var name = [CChar](repeating: 0, count: 64)
                var length = 0
                guard EVP_PKEY_get_group_name(key, &name, name.count, &length) == 1 else {
                    _ = LibCrypto.drainErrorQueue()
                    return .ec(curve: "unknown")
                }
                return .ec(curve: String(decoding: name.prefix(min(length, name.count)).map { UInt8(bitPattern: $0) },
                                         as: UTF8.self))
            case EVP_PKEY_ED25519: return .ed25519
            case EVP_PKEY_RSA: return .rsa(bits: Int(EVP_PKEY_get_bits(key)))
            case let id: return .other(id: id)
            }
        }
    }

    /// DER SubjectPublicKeyInfo, EC points uncompressed (as Python's cryptography writes them for imgtool).
    func subjectPublicKeyInfoDER() throws(OpenSSLError) -> [UInt8] {
        ERR_clear_error()
        if case .ec = type {
            let ok = withUnsafePointer { key in
                EVP_PKEY_set_utf8_string_param(key, OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT,
                                               OSSL_PKEY_EC_POINT_CONVERSION_FORMAT_UNCOMPRESSED)
            }
            guard ok == 1 else { throw OpenSSLError("selecting the uncompressed EC point format") }
        }
        return try encode("encoding the key as SubjectPublicKeyInfo") { i2d_PUBKEY($0, $1) }
    }

    /// DER PKCS#1 RSAPublicKey: i2d_PublicKey writes that form for RSA keys.
    func rsaPublicKeyDER() throws(OpenSSLError) -> [UInt8] {
        ERR_clear_error()
        return try encode("encoding the key as PKCS#1 RSAPublicKey") { i2d_PublicKey($0, $1) }
    }

    /// Runs an i2d function twice: once for the length, once into a buffer of that length.
    private func encode(
        _ operation: String,
        _ i2d: (OpaquePointer, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32
    ) throws(OpenSSLError) -> [UInt8] {
        let length = withUnsafePointer { i2d($0, nil) }
        guard length > 0 else { throw OpenSSLError(operation) }
        var written: Int32 = 0
        let der = [UInt8](unsafeUninitializedCapacity: Int(length)) { buffer, initialized in
            var cursor = buffer.baseAddress
            written = withUnsafePointer { i2d($0, &cursor) }
            initialized = written == length ? Int(length) : 0
        }
        guard written == length else { throw OpenSSLError(operation) }
        return der
    }

    /// Checks `signature` over the 32-byte image digest. Returns false for a signature that does not
    /// verify (malformed ones included: they come from the file); throws only if OpenSSL cannot run the check.
    func verify(signature: [UInt8], digest: [UInt8], scheme: DigestSignatureScheme) throws(OpenSSLError) -> Bool {
        ERR_clear_error()
        let result: Int32
        switch scheme {
        case .ed25519DigestAsMessage:
            let context = try DigestContext()
            result = try context.withUnsafePointer { (ctx) throws(OpenSSLError) -> Int32 in
                try withUnsafePointer { (key) throws(OpenSSLError) -> Int32 in
                    guard EVP_DigestVerifyInit(ctx, nil, nil, nil, key) == 1 else {
                        throw OpenSSLError("setting up Ed25519 verification")
                    }
                    return EVP_DigestVerify(ctx, signature, signature.count, digest, digest.count)
                }
            }
        case .ecdsaSHA256, .rsaPSSSHA256:
            let context = try KeyContext(for: self)
            result = try context.withUnsafePointer { (ctx) throws(OpenSSLError) -> Int32 in
                guard EVP_PKEY_verify_init(ctx) == 1, EVP_PKEY_CTX_set_signature_md(ctx, EVP_sha256()) == 1 else {
                    throw OpenSSLError("setting up signature verification")
                }
                if case .rsaPSSSHA256(let saltLength) = scheme {
                    guard EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PSS_PADDING) == 1,
                          EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, EVP_sha256()) == 1,
                          EVP_PKEY_CTX_set_rsa_pss_saltlen(ctx, saltLength) == 1 else {
                        throw OpenSSLError("setting up RSA-PSS verification")
                    }
                }
                return EVP_PKEY_verify(ctx, signature, signature.count, digest, digest.count)
            }
        }
        // 0 is "does not verify"; negative values also come from malformed signatures, which are file data.
        _ = LibCrypto.drainErrorQueue()
        return result == 1
    }
}

/// Owns one EVP_MD_CTX (Ed25519 verification goes through the DigestVerify API).
final class DigestContext {
    private let pointer: OpaquePointer

    init() throws(OpenSSLError) {
        guard let context = EVP_MD_CTX_new() else { throw OpenSSLError("allocating a digest context") }
        pointer = context
    }

    deinit { EVP_MD_CTX_free(pointer) }

    func withUnsafePointer<R, E: Error>(_ body: (OpaquePointer) throws(E) -> R) throws(E) -> R {
        defer { withExtendedLifetime(self) {} }
        return try body(pointer)
    }
}

/// Owns one EVP_PKEY_CTX bound to a key (ECDSA and RSA-PSS verify the digest through it). It holds its
/// own reference to the key, as OpenSSL does, so it may outlive the `EVPKey` it was made from.
final class KeyContext {
    private let pointer: OpaquePointer

    init(for key: EVPKey) throws(OpenSSLError) {
        guard let context = key.withUnsafePointer({ EVP_PKEY_CTX_new($0, nil) }) else {
            throw OpenSSLError("allocating a key context")
        }
        pointer = context
    }

    deinit { EVP_PKEY_CTX_free(pointer) }

    func withUnsafePointer<R, E: Error>(_ body: (OpaquePointer) throws(E) -> R) throws(E) -> R {
        defer { withExtendedLifetime(self) {} }
        return try body(pointer)
    }
}
