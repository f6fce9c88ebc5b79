// An nRF Connect SDK update zip (dfu_application.zip) as `dfu verify` and `dfu flash` read it: the
// zip, its manifest.json, each MCUboot image in it (NCSPackage), then each image's checks
// (NCSPackageVerifier) with a TEST-ONLY key or none. The first byte chooses the key; the rest is the file.
import DFUCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNCSPackage(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let options = input.byte()
    let bytes = input.rest()
    _ = NCSPackage.looksLikeNCSPackage(bytes)
    _ = UpdateFileKind(of: bytes)

    let package: NCSPackage
    do {
        package = try NCSPackage(zipBytes: bytes)
    } catch {
        _ = String(describing: error)
        return 0
    }
    for index in 0 ..< 3 { _ = package.images(forImageIndex: index) }
    let report = NCSPackageVerifier.verify(package, key: Keys.all[Int(options) % Keys.all.count])
    _ = String(describing: report)
    return 0
}

private enum Keys {
    static let all: [PublicKey?] = [nil, key(TestKeys.ecdsaP256), key(TestKeys.ed25519)]

    private static func key(_ pem: String) -> PublicKey {
        guard let key = try? PublicKey(pem: Array(pem.utf8)) else { fatalError("a test key does not load") }
        return key
    }
}
