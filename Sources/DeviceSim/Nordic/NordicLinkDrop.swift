/// A point at which the simulated bootloader closes the link itself (`sim:drop=`), so that a
/// central's resume is tried where a real link drops: right after the answer to the Nth data
/// object Create or Execute went out, or right after the Nth Packet write was stored. Counted over
/// one run of the bootloader (a reset starts again from 1); each point drops the link once.
public enum NordicLinkDrop: Sendable, Hashable, CustomStringConvertible {
    case afterCreate(Int)
    case afterExecute(Int)
    case afterPacket(Int)

    /// `create:N`, `execute:N` or `packet:N` (N from 1).
    public init?(_ text: Substring) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let n = Int(parts[1]), (1 ... 10_000_000).contains(n) else { return nil }
        switch parts[0].lowercased() {
        case "create": self = .afterCreate(n)
        case "execute": self = .afterExecute(n)
        case "packet": self = .afterPacket(n)
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .afterCreate(let n): return "create:\(n)"
        case .afterExecute(let n): return "execute:\(n)"
        case .afterPacket(let n): return "packet:\(n)"
        }
    }

    static let expected = "create:N, execute:N or packet:N (N from 1), joined with '+' (e.g. create:2+execute:5)"
}
