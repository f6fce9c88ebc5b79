#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import Transport

/// The one loop that writes all of a text to a blocking descriptor.
@Suite struct WriteAllTests {
    @Test func everyByteArrivesInOrder() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { _ = close(ends[0]) }
        let text = String(repeating: "0123456789", count: 300)
        #expect(SystemCall.writeAll(text, to: ends[1]) == nil)
        #expect(SystemCall.writeAll([0x21], to: ends[1]) == nil)
        _ = close(ends[1])
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            received += buffer.prefix(count)
        }
        #expect(received == Array(text.utf8) + [0x21])
    }

    @Test func aFailedWriteGivesItsErrno() {
        #expect(SystemCall.writeAll("lost", to: -1) == EBADF)
    }
}
