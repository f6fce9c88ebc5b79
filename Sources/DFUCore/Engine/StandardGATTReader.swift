import Transport

/// Reads what a device says about itself through the SIG services, whatever its update protocol:
/// the battery level (for the battery precondition) and the firmware revision. Both are optional:
/// a device without them, or one that answers nonsense, is noted and not checked.
struct StandardGATTReader {
    let link: any Link
    let log: @Sendable (String) -> Void
    let warn: @Sendable (String) -> Void

    /// `facts` with the battery level and firmware revision filled in where the device has them
    /// (what a protocol already learned is kept where this link lacks the service).
    func fill(_ facts: DeviceFacts) async -> DeviceFacts {
        var facts = facts
        facts.batteryLevel = await batteryLevel() ?? facts.batteryLevel
        facts.firmwareRevision = await firmwareRevision() ?? facts.firmwareRevision
        return facts
    }

    func batteryLevel() async -> Int? {
        guard StandardGATT.find(StandardGATT.batteryLevel, in: StandardGATT.batteryService, of: link.services) != nil else {
            return nil
        }
        do throws(LinkError) {
            let value = try await link.read(StandardGATT.batteryLevel)
            guard let level = value.first, level <= 100 else {
                warn("the device's battery level reads \(value.first.map(String.init) ?? "empty"), not a percentage; battery not checked")
                return nil
            }
            return Int(level)
        } catch {
            warn("could not read the device's battery level (\(error)); battery not checked")
            return nil
        }
    }

    func firmwareRevision() async -> String? {
        guard StandardGATT.find(StandardGATT.firmwareRevision, in: StandardGATT.deviceInformationService,
                                of: link.services) != nil else { return nil }
        do throws(LinkError) {
            // The string is the device's; keep it short and printable (renderers sanitize too).
            let value = try await link.read(StandardGATT.firmwareRevision).prefix(64).filter { $0 != 0 }
            return String(decoding: value, as: UTF8.self)
        } catch {
            log("could not read the firmware revision (\(error))")
            return nil
        }
    }
}
