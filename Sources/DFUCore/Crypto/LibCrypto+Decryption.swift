// The libcrypto calls behind image decryption (LibCrypto.swift holds the rest; STYLE.md, "In dfu"):
// private keys from PEM, ECDH and X25519 key agreement, RSA-OAEP, HMAC and AES-CTR. Key material
// passes through here but is never logged, and buffers OpenSSL allocates for it are wiped.
internal import COpenSSL

extension LibCrypto {
    /// The first PEM private key in `pem` (PKCS#8, or the traditional EC/RSA forms). A key under a
    /// passphrase is refused instead of prompting on the terminal.
    static func decodePrivateKeyPEM(_ pem: [UInt8]) throws(PEMKeyError) -> EVPKey {
        let bio: MemoryBIO
        do { bio = try MemoryBIO(copying: pem) } catch { throw .library(error) }
        ERR_clear_error()
        let key = bio.withUnsafePointer { PEM_read_bio_PrivateKey($0, nil, { _, _, _, _ in 0 }, nil) }
        guard let key else {
            let detail = drainErrorQueue()
            throw detail.contains("no start line") ? .noPEMBlock : .undecodable(label: "PRIVATE KEY", detail: detail)
        }
        return EVPKey(owning: key)
    }

    /// An X25519 public key from its 32 raw bytes (the ephemeral key in ENC_X25519).
    static func x25519PublicKey(_ raw: ArraySlice<UInt8>) -> EVPKey? {
        let key = raw.withUnsafeBufferPointer { EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, nil, $0.baseAddress, $0.count) }
        guard let key else {
            _ = drainErrorQueue()
            return nil
        }
        return EVPKey(owning: key)
    }

    /// HMAC of `data` with `key`, SHA-256 or SHA-512.
    static func hmac(sha512: Bool, key: [UInt8], data: [UInt8]) throws(OpenSSLError) -> [UInt8] {
        ERR_clear_error()
        let size = sha512 ? 64 : 32
        var length: UInt32 = 0
        let mac = [UInt8](unsafeUninitializedCapacity: size) { out, initialized in
            let done = HMAC(sha512 ? EVP_sha512() : EVP_sha256(), key, Int32(key.count), data, data.count,
                            out.baseAddress, &length)
            initialized = done != nil && Int(length) == size ? size : 0
        }
        guard mac.count == size else { throw OpenSSLError("computing an HMAC") }
        return mac
    }

    /// AES-CTR over `data` with a 16- or 32-byte key and a counter block starting at zero: what imgtool
    /// and MCUboot use for the image body and, in ECIES, for the wrapped key.
    static func aesCTR(key: [UInt8], _ data: ArraySlice<UInt8>) throws(OpenSSLError) -> [UInt8] {
        ERR_clear_error()
        guard key.count == 16 || key.count == 32, data.count < Int(Int32.max) else {
            throw OpenSSLError("checking the AES-CTR key and data sizes")
        }
        let context = try CipherContext()
        let iv = [UInt8](repeating: 0, count: 16)
        var written: Int32 = 0
        let cipher = key.count == 16 ? EVP_aes_128_ctr() : EVP_aes_256_ctr()
        let output = try context.withUnsafePointer { (ctx) throws(OpenSSLError) -> [UInt8] in
            guard EVP_DecryptInit_ex(ctx, cipher, nil, key, iv) == 1 else { throw OpenSSLError("setting up AES-CTR") }
            return [UInt8](unsafeUninitializedCapacity: max(1, data.count)) { out, initialized in
                let ok = data.withUnsafeBufferPointer { input in
                    EVP_DecryptUpdate(ctx, out.baseAddress, &written, input.baseAddress, Int32(input.count))
                }
                initialized = ok == 1 && Int(written) == data.count ? data.count : 0
            }
        }
        guard output.count == data.count else { throw OpenSSLError("decrypting with AES-CTR") }
        return output
    }
}

extension EVPKey {
    /// ECDH (P-256) or X25519 shared secret between this private key and `peer`; nil (the peer key
    /// came from the file) when they do not agree, e.g. a point not on the curve.
    func sharedSecret(with peer: EVPKey) throws(OpenSSLError) -> [UInt8]? {
        ERR_clear_error()
        let context = try KeyContext(for: self)
        return context.withUnsafePointer { ctx -> [UInt8]? in
            var length = 0
            guard EVP_PKEY_derive_init(ctx) == 1,
                  peer.withUnsafePointer({ EVP_PKEY_derive_set_peer(ctx, $0) }) == 1,
                  EVP_PKEY_derive(ctx, nil, &length) == 1, length > 0, length <= 128 else {
                _ = LibCrypto.drainErrorQueue()
                return nil
            }
            var secret = [UInt8](repeating: 0, count: length)
            guard EVP_PKEY_derive(ctx, &secret, &length) == 1 else {
                _ = LibCrypto.drainErrorQueue()
                return nil
            }
            return Array(secret.prefix(length))
        }
    }

    /// RSA-OAEP (SHA-256, MGF1-SHA-256, no label) decryption with this private key, as MCUboot's
    /// `bootutil_rsa_oaep_decrypt`; nil when `ciphertext` does not decrypt (it came from the file).
    func rsaOAEPDecrypt(_ ciphertext: [UInt8]) throws(OpenSSLError) -> [UInt8]? {
        ERR_clear_error()
        let context = try KeyContext(for: self)
        return try context.withUnsafePointer { (ctx) throws(OpenSSLError) -> [UInt8]? in
            guard EVP_PKEY_decrypt_init(ctx) == 1, EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_OAEP_PADDING) == 1,
                  EVP_PKEY_CTX_set_rsa_oaep_md(ctx, EVP_sha256()) == 1,
                  EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, EVP_sha256()) == 1 else {
                throw OpenSSLError("setting up RSA-OAEP decryption")
            }
            var length = 0
            guard EVP_PKEY_decrypt(ctx, nil, &length, ciphertext, ciphertext.count) == 1, length > 0, length <= 1024 else {
                _ = LibCrypto.drainErrorQueue()
                return nil
            }
            var plain = [UInt8](repeating: 0, count: length)
            guard EVP_PKEY_decrypt(ctx, &plain, &length, ciphertext, ciphertext.count) == 1 else {
                _ = LibCrypto.drainErrorQueue()
                return nil
            }
            return Array(plain.prefix(length))
        }
    }
}

/// Owns one EVP_CIPHER_CTX (AES-CTR).
final class CipherContext {
    private let pointer: OpaquePointer

    init() throws(OpenSSLError) {
        guard let context = EVP_CIPHER_CTX_new() else { throw OpenSSLError("allocating a cipher context") }
        pointer = context
    }

    deinit { EVP_CIPHER_CTX_free(pointer) }

    func withUnsafePointer<R, E: Error>(_ body: (OpaquePointer) throws(E) -> R) throws(E) -> R {
        defer { withExtendedLifetime(self) {} }
        return try body(pointer)
    }
}

extension EVPKey {
    var isX25519: Bool { withUnsafePointer { EVP_PKEY_get_base_id($0) == EVP_PKEY_X25519 } }
}
