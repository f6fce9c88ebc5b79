/// Decrypts an encrypted MCUboot image as MCUboot does when it copies it to the primary slot (mcuboot
/// `docs/encrypted_images.md`, `boot/bootutil/src/encrypted.c`):
/// - the AES key (16 bytes, or 32 with `ENCRYPTED_AES256`) comes from the key TLV: RSA-OAEP
///   (ENC_RSA2048), or ECIES: `ephemeral public key ‖ HMAC tag ‖ wrapped key`, where the ECDH (P-256)
///   or X25519 secret goes through HKDF (info `MCUBoot_ECIES_v1`, no salt) into an AES-CTR key for
///   the wrapped key and an HMAC key for the tag;
/// - the body alone is AES-CTR, the counter starting at zero at the body's first byte; header and
///   TLVs are plain. The result keeps the header as it is (flags included), as MCUboot's copy does.
public enum ImageDecryption {
    static let info = Array("MCUBoot_ECIES_v1".utf8)

    public static func decrypt(_ image: MCUbootImage, with key: ImageDecryptionKey) -> Result<[UInt8], ImageDecryptionError> {
        let keySize = image.header.flags.contains(.encryptedAES256) ? 32 : 16
        do throws(ImageDecryptionError) {
            let aesKey = try unwrap(image, key: key, keySize: keySize)
            let body = image.header.headerSize ..< image.header.headerSize + image.header.imageSize
            var bytes = image.bytes
            let plain: [UInt8]
            do { plain = try LibCrypto.aesCTR(key: aesKey, image.bytes[body]) } catch { throw .crypto(error.detail) }
            bytes.replaceSubrange(body, with: plain)
            return .success(bytes)
        } catch {
            return .failure(error)
        }
    }

    private static func unwrap(_ image: MCUbootImage, key: ImageDecryptionKey, keySize: Int) throws(ImageDecryptionError) -> [UInt8] {
        guard let tlv = image.unprotectedTLVs.first(where: { key.kind.tlvTypes.contains($0.type) }) else {
            throw .noKeyTLV(expected: key.kind.tlvTypes.map { "\($0)" }.joined(separator: " or "))
        }
        let name = "\(tlv.type)"
        return try key.withKey { (privateKey) throws(ImageDecryptionError) -> [UInt8] in
            switch key.kind {
            case .rsaOAEP:
                guard tlv.value.count == 256 else { throw .malformedKeyTLV(type: name, length: tlv.value.count, expected: 256) }
                let unwrapped: [UInt8]?
                do throws(OpenSSLError) { unwrapped = try privateKey.rsaOAEPDecrypt(tlv.value) } catch { throw .crypto(error.detail) }
                guard let unwrapped, unwrapped.count == keySize else { throw .wrongKey(type: name) }
                return unwrapped
            case .eciesP256, .eciesX25519:
                return try unwrapECIES(tlv, privateKey: privateKey, p256: key.kind == .eciesP256, keySize: keySize)
            }
        }
    }

    private static func unwrapECIES(_ tlv: TLV, privateKey: EVPKey, p256: Bool, keySize: Int) throws(ImageDecryptionError) -> [UInt8] {
        guard let key = try unwrapECIESKey(tlv, privateKey: privateKey, p256: p256, keySize: keySize) else {
            throw .wrongKey(type: "\(tlv.type)")
        }
        return key
    }

    /// nil when the TLV does not unwrap with this key.
    private static func unwrapECIESKey(_ tlv: TLV, privateKey: EVPKey, p256: Bool, keySize: Int) throws(ImageDecryptionError) -> [UInt8]? {
        let sha512 = tlv.type == .encryptedX25519SHA512
        let publicKeySize = p256 ? 65 : 32
        let tagSize = sha512 ? 64 : 32
        let name = "\(tlv.type)"
        guard tlv.value.count == publicKeySize + tagSize + keySize else {
            throw .malformedKeyTLV(type: name, length: tlv.value.count, expected: publicKeySize + tagSize + keySize)
        }
        let ephemeral = tlv.value[0 ..< publicKeySize]
        let tag = Array(tlv.value[publicKeySize ..< publicKeySize + tagSize])
        let wrapped = Array(tlv.value[(publicKeySize + tagSize)...])
        let peer = p256 ? EVPKey.decode(subjectPublicKeyInfo: p256PublicKeyInfoPrefix + ephemeral)
                        : LibCrypto.x25519PublicKey(ephemeral)
        guard let peer else { throw .wrongKey(type: name) }
        do throws(OpenSSLError) {
            guard let secret = try privateKey.sharedSecret(with: peer) else { return nil as [UInt8]? }
            let derived = try HKDF.derive(sha512: sha512, secret: secret, info: info, length: keySize + tagSize)
            let expectedTag = try LibCrypto.hmac(sha512: sha512, key: Array(derived[keySize...]), data: wrapped)
            guard expectedTag == tag else { return nil }
            return try LibCrypto.aesCTR(key: Array(derived[0 ..< keySize]), wrapped[...])
        } catch {
            throw .crypto(error.detail)
        }
    }

    /// DER SubjectPublicKeyInfo up to the point: SEQUENCE { SEQUENCE { id-ecPublicKey, prime256v1 },
    /// BIT STRING (65 bytes) }, so the 65-byte uncompressed point in ENC_EC256 decodes as a key.
    private static let p256PublicKeyInfoPrefix: [UInt8] = [
        0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A,
        0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
    ]
}
