// The virtual device's options (`--device sim:KEY=VALUE,…`, the fault list, the Nordic keys:
// SimOptions.parse and FaultSpec), then what is built from them without serving: the identity, the
// link profile, the server's configuration and, when no key file is named, the device's
// configuration (SMP or Nordic). Any text gives options or a SimOptionsError.
import DeviceSim

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSimOptions(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    let text = String(decoding: FuzzInput(data, size).remaining, as: UTF8.self)
    let options: SimOptions
    do {
        options = try SimOptions.parse(text.hasPrefix("sim") ? text : "sim:" + text)
    } catch {
        _ = String(describing: error)
        return 0
    }
    _ = options.identity
    _ = try? options.linkProfile()
    _ = options.serverConfiguration
    // A key file would be read from the path the text names: left out, the fuzzer picks no files.
    if options.keyPath == nil && options.encryptionKeyPath == nil {
        if options.simProtocol == .nordic {
            _ = try? options.nordicDeviceConfiguration()
            _ = try? options.nordicBootloaderLinkProfile()
        } else {
            _ = try? options.deviceConfiguration()
        }
    }
    return 0
}
