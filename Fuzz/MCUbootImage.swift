// An MCUboot image file as `dfu verify` and `dfu flash` read it: the registry's sniffing, the
// layout parser (MCUbootImage: header, body, TLV areas) and the verifier (ImageVerifier: SHA-256,
// signature with each kind of key, key hash, compression and the decompressed image), then what the
// virtual device does with an encrypted one (ImageDecryption). The first byte chooses the key and
// the options; the rest is the file. Each returns or throws.
import DFUCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMCUbootImage(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let options = input.byte()
    let bytes = input.rest()
    _ = ProtocolRegistry.recognise(bytes)
    _ = UpdateFileKind(of: bytes)

    let image: MCUbootImage
    do {
        image = try MCUbootImage(bytes: bytes)
    } catch {
        _ = String(describing: error)
        return 0
    }
    _ = image.description
    _ = image.debugDescription
    require(image.imageLength <= bytes.count, "image of \(image.imageLength) bytes in a \(bytes.count)-byte file")

    let key = Keys.verifying[Int(options & 0x07) % Keys.verifying.count]
    do {
        let report = try ImageVerifier.verify(bytes: bytes, key: key, decrypted: options & 0x08 != 0)
        _ = String(describing: report)
    } catch {
        _ = String(describing: error)
    }
    if options & 0x10 != 0 {
        let decryption = Keys.decrypting[Int(options >> 5) % Keys.decrypting.count]
        if case .success(let plain) = ImageDecryption.decrypt(image, with: decryption) {
            require(plain.count == bytes.count, "decryption changed the size")
        }
    }
    return 0
}

/// The keys, parsed once.
private enum Keys {
    static let verifying: [PublicKey?] = [nil, key(TestKeys.ecdsaP256), key(TestKeys.ed25519), key(TestKeys.rsa2048),
                                          key(TestKeys.rsa3072)]
    static let decrypting = [decryptionKey(TestKeys.encryptionP256), decryptionKey(TestKeys.encryptionX25519)]

    private static func key(_ pem: String) -> PublicKey {
        guard let key = try? PublicKey(pem: Array(pem.utf8)) else { fatalError("a test key does not load") }
        return key
    }

    private static func decryptionKey(_ pem: String) -> ImageDecryptionKey {
        guard let key = try? ImageDecryptionKey(pem: Array(pem.utf8), source: "a TEST-ONLY key") else {
            fatalError("a test decryption key does not load")
        }
        return key
    }
}
