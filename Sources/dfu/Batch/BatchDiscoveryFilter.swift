#if canImport(Glibc)
import ArgumentParsing
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import BlueZTransport
import DFUCore
import Transport

/// Which heard devices `dfu batch --discover FILTER` takes: `name:GLOB` (shell pattern, `*` `?`
/// `[…]`, as the device advertises its name), `service:UUID` (a service it advertises), or `any`
/// (any device advertising SMP or Nordic Secure DFU). Every form also needs one of dfu's update
/// services unless `service:` names another.
struct BatchDiscoveryFilter: Sendable, Equatable {
    var namePattern: String?
    var services: [ServiceID]

    static let forms = "name:GLOB (name:sensor-*), service:UUID or any"

    init(parsing text: String) throws(UsageError) {
        if text == "any" {
            namePattern = nil
            services = DFUServiceIDs.updatable
        } else if text.hasPrefix("name:"), text.count > 5 {
            namePattern = String(text.dropFirst(5))
            services = DFUServiceIDs.updatable
        } else if text.hasPrefix("service:"), let uuid = BluetoothUUID(string: String(text.dropFirst(8))) {
            namePattern = nil
            services = [ServiceID(uuid)]
        } else {
            throw UsageError("invalid --discover '\(text)': expected \(Self.forms)")
        }
    }

    /// The scan's own filter (services, RSSI floor), which bluetoothd applies too.
    func scanFilter(minimumRSSI: Int?) -> BlueZScanFilter {
        BlueZScanFilter(services: services, minimumRSSI: minimumRSSI)
    }

    /// Whether a device the scan reported passes the name pattern (a device not yet named does not).
    func matchesName(_ name: String?) -> Bool {
        guard let namePattern else { return true }
        guard let name else { return false }
        return fnmatch(namePattern, name, 0) == 0
    }
}
