/// Which registered peripheral a peer names: its registered identity, `name:NAME` (whichever
/// advertises that name now) or `sole-name:NAME` (the only one advertising it; several are an
/// error, never a guess: two Nordic bootloaders under the default `DfuTarg` cannot be told apart).
extension MemoryConnector {
    /// The first of `peers` that is connectable now: the peer as asked for, and the entry it names.
    func connectableNow(_ peers: [PeerIdentity]) throws(LinkError) -> (requested: PeerIdentity, entry: PeerIdentity)? {
        for peer in peers {
            if let entry = entries[peer] {
                if entry.connectable { return (peer, peer) }
                continue
            }
            guard let (name, sole) = Self.advertisedName(in: peer) else { continue }
            let advertisers = entries.filter { $0.value.advertising && $0.value.name == name }
            if sole, advertisers.count > 1 { throw .ambiguous(peer, count: advertisers.count) }
            if let match = advertisers.first(where: { $0.value.connectable }) { return (peer, match.key) }
        }
        return nil
    }

    /// Whether `peer` could ever be reached here: registered, or a name (advertised names change).
    func canEverMatch(_ peer: PeerIdentity) -> Bool {
        entries[peer] != nil || Self.advertisedName(in: peer) != nil
    }

    /// `name:NAME` → (NAME, false); `sole-name:NAME` → (NAME, true).
    static func advertisedName(in peer: PeerIdentity) -> (String, sole: Bool)? {
        for (prefix, sole) in [("name:", false), ("sole-name:", true)] where peer.rawValue.hasPrefix(prefix) {
            let name = String(peer.rawValue.dropFirst(prefix.count))
            return name.isEmpty ? nil : (name, sole)
        }
        return nil
    }
}
