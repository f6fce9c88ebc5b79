import Testing
@testable import Transport

/// FNV-1a, 64 bits, against the published test vectors: journal names and the virtual devices'
/// addresses depend on it staying the same.
@Suite struct FNV1aTests {
    @Test func matchesThePublishedVectors() {
        #expect(fnv1a([UInt8]()) == 0xCBF2_9CE4_8422_2325)
        #expect(fnv1a("a".utf8) == 0xAF63_DC4C_8601_EC8C)
        #expect(fnv1a("foobar".utf8) == 0x8594_4171_F739_67E8)
    }
}
