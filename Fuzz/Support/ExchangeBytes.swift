/// Deterministic bytes (a 64-bit LCG's high bits), different at every offset a chunk or packet
/// could be misplaced to: what an exchange target transfers. Fewer bytes from the same seed are a
/// prefix of more, so a target makes the longest it needs once.
func exchangeBytes(count: Int, seed: UInt64) -> [UInt8] {
    var state = seed
    return (0 ..< count).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: state >> 33)
    }
}
