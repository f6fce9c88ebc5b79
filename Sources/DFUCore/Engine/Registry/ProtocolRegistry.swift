import Transport

/// The update protocols dfu speaks. The engine picks the protocol of an update file here, `dfu info`
/// the layouts, peers and reader of a device, `dfu scan` the advertised services; none of them names
/// a protocol. Adding one is a folder in `DFUCore` with its `ProtocolEntry`, and one word in `all`
/// (docs/engine.md, "Adding a protocol").
package enum ProtocolRegistry {
    /// Every protocol, in the order a device offering several is read with (SMP first: an
    /// application with MCUmgr that also carries buttonless DFU is updated over SMP).
    package static let all: [ProtocolEntry] = [.smp, .nordic]

    package static func entry(named name: UpdateProtocolName) -> ProtocolEntry? {
        all.first { $0.name == name }
    }

    /// The protocol an update file is for, and what kind of file it is: the strongest claim
    /// (`FileClaim`); of equal ones, the earlier entry's. Nil when no protocol takes the file.
    package static func recognise(_ bytes: [UInt8]) -> (entry: ProtocolEntry, kind: UpdateFileKind)? {
        var best: (entry: ProtocolEntry, claim: FileClaim)?
        for entry in all {
            guard let claim = entry.recognise(bytes) else { continue }
            if let current = best, current.claim.strength >= claim.strength { continue }
            best = (entry, claim)
        }
        return best.map { ($0.entry, $0.claim.kind) }
    }

    /// The first protocol (in registry order) whose service `services` advertise.
    package static func entry(advertising services: [ServiceID]) -> ProtocolEntry? {
        all.first { services.contains($0.advertisedService) }
    }

    /// Every protocol's advertised service, in registry order.
    package static var advertisedServices: [ServiceID] { all.map(\.advertisedService) }

    /// Every protocol's serial probes, in registry order (`dfu scan --serial`).
    package static var serialProbes: [SerialProbe] { all.flatMap(\.serialProbes) }
}
