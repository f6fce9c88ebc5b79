// A Nordic Secure DFU package as `dfu verify` and `dfu flash` read it: the zip (ZipArchive over
// libzip, with its limits and entry-name checks), manifest.json, each .dat init packet and .bin
// (NordicPackage), then the bootloader's checks (NordicPackageVerifier) with the TEST-ONLY key or
// none. The first byte chooses the key and the signing policy; the rest is the file.
import DFUCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNordicPackage(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let options = input.byte()
    let bytes = input.rest()
    _ = ProtocolRegistry.recognise(bytes)
    _ = ZipArchive.looksLikeZip(bytes)
    _ = ZipArchive.peekEntry(named: "manifest.json", in: bytes, limit: NordicManifest.maximumSize)

    let package: NordicPackage
    do {
        package = try NordicPackage(zipBytes: bytes)
    } catch {
        _ = String(describing: error)
        return 0
    }
    do {
        let report = try NordicPackageVerifier.verify(package, key: options & 1 == 0 ? nil : Keys.nordic,
                                                      allowUnsigned: options & 2 != 0)
        _ = String(describing: report)
    } catch {
        _ = String(describing: error)
    }
    return 0
}

private enum Keys {
    static let nordic: PublicKey = {
        guard let key = try? PublicKey(pem: Array(TestKeys.nordicP256.utf8)) else { fatalError("the test key does not load") }
        return key
    }()
}
