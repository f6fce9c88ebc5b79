// In-process (see RenderFormattingTests.swift for the DFU_CLI_UNIT_TESTS condition).
#if DFU_CLI_UNIT_TESTS
@testable import dfu
import Testing

/// The build time of an NCS zip as `dfu verify` prints it: UTC, whatever the machine's time zone.
@Suite struct UTCTimestampTests {
    @Test(arguments: [
        (0, "1970-01-01 00:00:00 UTC"), (1_733_097_600, "2024-12-02 00:00:00 UTC"),
        (951_782_400, "2000-02-29 00:00:00 UTC"), (951_868_799, "2000-02-29 23:59:59 UTC"),
        (4_102_444_799, "2099-12-31 23:59:59 UTC"), (1_709_251_199, "2024-02-29 23:59:59 UTC"),
        (-1, "1969-12-31 23:59:59 UTC"),
    ])
    func printsTheCalendarDateInUTC(seconds: Int, expected: String) {
        #expect(UTCTimestamp.text(seconds) == expected)
    }

    @Test func theLargestTimeAManifestMayHoldDoesNotTrap() {
        #expect(UTCTimestamp.text(Int(Int64.max)).hasSuffix(" UTC"))
    }
}
#endif
