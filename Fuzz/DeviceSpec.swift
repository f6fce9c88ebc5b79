// The `--device` option and a batch plan's device column (DeviceSpec: sim[:…], udp:HOST:PORT,
// serial:PATH[,…], an address, name:NAME) and the virtual device's options behind `sim:`. Any text
// is a device or a usage error; a device's canonical text parses back to the same device, as
// DeviceSpec promises, and its names can be shown.
@testable import dfu

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDeviceSpec(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    let text = String(decoding: FuzzInput(data, size).remaining, as: UTF8.self)
    _ = try? DeviceSpec(reading: text)
    let spec: DeviceSpec
    do {
        spec = try DeviceSpec(parsing: text)
    } catch {
        _ = String(describing: error)
        return 0
    }
    _ = spec.displayName(fullAddresses: false)
    _ = spec.displayName(fullAddresses: true)
    require((try? DeviceSpec(parsing: spec.description)) == spec, "'\(spec.description)' does not parse back to \(spec)")
    _ = BatchSimDevice.resolvingPaths(text, in: "/plans")
    return 0
}
