import DFUCore
import Testing

/// The first upload reply waits for the device's erase of the image's length, which grows with
/// the image (and is slow on external flash): 40 s per started MiB unless the user gave a deadline.
@Suite struct FirstChunkDeadlineTests {
    @Test func growsByFortySecondsPerStartedMebibyte() {
        let deadlines = UpdateOptions.Deadlines()
        #expect(deadlines.firstChunk(forImageOf: 49_000) == .seconds(40))
        #expect(deadlines.firstChunk(forImageOf: 1 << 20) == .seconds(40))
        #expect(deadlines.firstChunk(forImageOf: (1 << 20) + 1) == .seconds(80))
        #expect(deadlines.firstChunk(forImageOf: 8 << 20) == .seconds(320))
        #expect(deadlines.firstChunk(forImageOf: 0) == .seconds(40))
    }

    @Test func aDeadlineTheUserGaveIsTakenAsGiven() {
        var deadlines = UpdateOptions.Deadlines()
        deadlines.firstChunk = .seconds(15)
        deadlines.firstChunkPerMiB = nil
        #expect(deadlines.firstChunk(forImageOf: 8 << 20) == .seconds(15))
    }
}
