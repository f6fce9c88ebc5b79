/// FNV-1a, 64 bits: a stable, dependency-free hash (not for security), for names that must come out
/// the same on every run: journal file names, the virtual devices' derived addresses.
package func fnv1a(_ bytes: some Sequence<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in bytes {
        hash ^= UInt64(byte)
        hash &*= 0x0000_0100_0000_01B3
    }
    return hash
}
