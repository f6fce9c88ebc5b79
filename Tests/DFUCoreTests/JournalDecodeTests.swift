@testable import DFUCore
import Foundation
import Testing

/// `JournalStore.decode`, the store's reading without the file system (what Fuzz/JournalReader.swift
/// feeds any bytes): a journal it wrote reads back, anything else is a reason, never a trap.
@Suite struct JournalDecodeTests {
    @Test func aJournalAsTheStoreWritesItDecodesToItself() throws {
        var request = FlashRequest(imagePath: "/images/app.bin", device: "AA:BB:CC:DD:EE:FF")
        request.timeouts = FlashRequest.Timeouts(connect: 30, chunk: 2.5)
        let journal = UpdateJournal(request: request, file: UpdateFileFacts(sha256: String(repeating: "ab", count: 32),
                                                                            size: 49816, protocolName: .smp), now: 1_733_097_600)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let bytes = Array(try encoder.encode(journal))
        guard case .journal(let read) = JournalStore.decode(bytes) else {
            Issue.record("the journal did not decode")
            return
        }
        #expect(read == journal)
    }

    @Test(arguments: [[], Array("{".utf8), Array("{\"format\": 2}".utf8), Array("[1, 2]".utf8), [0xFF, 0xFE, 0x00]])
    func bytesThatAreNoJournalGiveAReason(_ bytes: [UInt8]) {
        guard case .bad(let reason) = JournalStore.decode(bytes) else {
            Issue.record("\(bytes) decoded as a journal")
            return
        }
        #expect(reason.contains("not a dfu journal"))
    }

    @Test func aJournalOfAnotherFormatIsNamed() {
        guard case .bad(let reason) = JournalStore.decode(Array("{\"format\": \"dfu-journal/9\"}".utf8)) else {
            Issue.record("a foreign journal decoded")
            return
        }
        #expect(reason.contains("dfu-journal/9"))
    }
}
