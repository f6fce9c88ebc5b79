// The manifest.json of the two kinds of firmware zip, read apart from the zip (whose CRC would
// stop most mutations before them): a Nordic DFU package's (NordicManifest) and an nRF Connect SDK
// update's (NCSManifest). Each decodes or throws, and its errors can be shown.
import DFUCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPackageManifest(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    let json = Array(FuzzInput(data, size).remaining)
    do {
        let manifest = try NordicManifest(json: json)
        _ = String(describing: manifest)
    } catch {
        _ = String(describing: error)
    }
    _ = NCSManifest.describesNCSPackage(json: json)
    do {
        let manifest = try NCSManifest(json: json)
        _ = String(describing: manifest)
    } catch {
        _ = String(describing: error)
    }
    return 0
}
