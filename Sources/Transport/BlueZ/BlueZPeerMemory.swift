/// What a connector remembers about the peers it reached, so the next `connect` (after a device
/// rebooted) looks in the right place. Pure: the connector keeps one under its lock.
///
/// - An address peer is looked for where it was last reached (it may have come back under another
///   address), falling back on the name it advertised.
/// - A name peer is looked for at the address it was last reached at, falling back on the name:
///   once connected, BlueZ may replace Device1.Name with the device's GAP name, and a device it
///   already knows is not always reported again while discovering (seen on the rig).
struct BlueZPeerMemory: Sendable, Equatable {
    /// Where to look: the address to try first, the name to fall back on.
    struct SearchPlan: Sendable, Equatable {
        var address: String?
        var name: String?
    }

    /// Advertised names by address.
    private var names: [String: String] = [:]
    /// For "name:NAME" peers: the address the name was last reached at.
    private var addressesByName: [String: String] = [:]
    /// Address peers that came back under another address.
    private var redirects: [String: String] = [:]

    func plan(for target: BlueZPeerTarget) -> SearchPlan {
        switch target {
        case .address(let address):
            let current = redirects[address] ?? address
            return SearchPlan(address: current, name: names[address] ?? names[current])
        case .name(let name):
            return SearchPlan(address: addressesByName[name], name: name)
        case .soleName(let name):
            return SearchPlan(address: nil, name: name)
        }
    }

    /// `target` was reached at `address`, whose Device1.Name was `name` when it was found. The
    /// first name heard for an address is kept: a later one may be the GAP name BlueZ read.
    mutating func record(_ target: BlueZPeerTarget, reachedAt address: String, name: String?) {
        switch target {
        case .name(let wanted):
            addressesByName[wanted] = address
            names[address] = wanted
        case .address(let asked):
            if address != asked { redirects[asked] = address }
            if names[asked] == nil, let name { names[asked] = name }
            if names[address] == nil { names[address] = names[asked] }
        case .soleName:
            break // found afresh each time: only the devices heard now can say it is the only one
        }
    }
}
