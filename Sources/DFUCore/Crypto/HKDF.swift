/// HKDF (RFC 5869) over HMAC-SHA-256 or HMAC-SHA-512, as MCUboot's ECIES derives its keys
/// (mcuboot `docs/encrypted_images.md`, "ECIES encryption"; `hkdf` in `boot/bootutil/src/encrypted.c`):
/// no salt, which RFC 5869 defines as a salt of hash-length zero bytes.
enum HKDF {
    static func derive(sha512: Bool, secret: [UInt8], info: [UInt8], length: Int) throws(OpenSSLError) -> [UInt8] {
        let hashLength = sha512 ? 64 : 32
        let pseudoRandomKey = try LibCrypto.hmac(sha512: sha512, key: [UInt8](repeating: 0, count: hashLength), data: secret)
        var output: [UInt8] = []
        var block: [UInt8] = []
        var counter: UInt8 = 1
        while output.count < length {
            block = try LibCrypto.hmac(sha512: sha512, key: pseudoRandomKey, data: block + info + [counter])
            output += block
            counter &+= 1
        }
        return Array(output.prefix(length))
    }
}
