import Testing
import Transport

/// `LinkProfile.connectionEvents(carrying:)`: the events a stop-and-wait burst occupies, by the
/// same slot rules as the ceiling (the Nordic benchmark's model; docs/performance.md).
@Suite struct LinkProfileBurstTests {
    static let twoMegabit = try! LinkProfile(phy: .le2M, connectionInterval: .microseconds(7_500), attMTU: 247)

    @Test func noWritesNoEvents() {
        #expect(Self.twoMegabit.connectionEvents(carrying: []) == 0)
    }

    @Test func fivePacketsAndAChecksumShareOneEventAtTwoMegabit() {
        // 5 × 1392 µs + a 1-byte write's 420 µs slot = 7380 µs ≤ 7.5 ms.
        #expect(Self.twoMegabit.connectionEvents(carrying: Array(repeating: 244, count: 5) + [1]) == 1)
        #expect(Self.twoMegabit.connectionEvents(carrying: Array(repeating: 244, count: 6)) == 2)
    }

    @Test func aNordicObjectAtOneMegabitTakesTwoEvents() {
        // 12 slots of 2468 µs per 30 ms event: 17 packets and the checksum request fill two.
        let object = Array(repeating: 244, count: 16) + [192, 1]
        #expect(LinkProfile.typical1M.connectionEvents(carrying: Array(repeating: 244, count: 12)) == 1)
        #expect(LinkProfile.typical1M.connectionEvents(carrying: object) == 2)
    }
}
