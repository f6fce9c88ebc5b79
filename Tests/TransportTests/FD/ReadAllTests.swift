#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import Transport

/// The one loop that reads a blocking descriptor to its end or to a limit.
@Suite struct ReadAllTests {
    @Test func readsUpToTheLimitThenToTheEnd() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { _ = close(ends[0]) }
        let bytes = Array(0 ..< 10 as Range<UInt8>)
        #expect(SystemCall.writeAll(bytes, to: ends[1]) == nil)
        _ = close(ends[1])
        #expect(try SystemCall.readAll(from: ends[0], upTo: 4) == [0, 1, 2, 3])
        #expect(try SystemCall.readAll(from: ends[0], upTo: 100) == Array(4 ..< 10))
        #expect(try SystemCall.readAll(from: ends[0], upTo: 100) == [])
    }

    @Test func aFailedReadNamesTheCallAndItsErrno() {
        #expect(throws: SystemCallError(call: "read", code: EBADF)) { try SystemCall.readAll(from: -1, upTo: 8) }
    }
}
