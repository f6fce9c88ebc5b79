@testable import ArgumentParsing
@testable import dfu
import DFUCore
import Testing

/// `--first-chunk-timeout`: without it the deadline grows with the image; with it, it is fixed.
@Suite struct FlashTimeoutsTests {
    @Test func withoutTheOptionTheFirstChunkDeadlineScales() {
        let deadlines = FlashTimeouts().deadlines
        #expect(deadlines.firstChunkPerMiB == .seconds(40))
        #expect(deadlines.firstChunk(forImageOf: 3 << 20) == .seconds(120))
    }

    @Test func theOptionFixesTheFirstChunkDeadline() throws {
        let definitions = try ArgumentCollector.definitions(of: FlashCommand.self)
        let values = try CommandLineParser(definitions: definitions)
            .parse(["app.bin", "--device", "sim", "--first-chunk-timeout", "25"])
        let timeouts = try FlashCommand(from: ArgumentValueDecoder(values: values)).timeouts
        #expect(timeouts.deadlines.firstChunkPerMiB == nil)
        #expect(timeouts.deadlines.firstChunk(forImageOf: 3 << 20) == .seconds(25))
    }
}
