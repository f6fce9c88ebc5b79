// An update journal file as `dfu resume` and `dfu flash` read it (JournalStore.decode: the format
// field, today's format or the first one converted through LegacyJournal). Any bytes give a journal
// or the reason they are not one; a journal read survives being written and read again, as the
// store writes it, and its device has a file name.
import Foundation
@testable import DFUCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJournalReader(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    let bytes = Array(FuzzInput(data, size).remaining)
    guard case .journal(let journal) = JournalStore.decode(bytes) else { return 0 }
    _ = JournalStore.fileName(for: journal.device)
    _ = journal.mode
    // What `dfu resume` makes of the stored waits.
    _ = journal.request.timeouts.deadlines
    _ = journal.protocolName
    _ = journal.isSameUpdate(device: journal.device, imageSHA256: journal.imageSHA256)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    // A wait of 1e999 seconds reads as infinity, which JSON cannot write: the store then reports
    // that it cannot save the journal (JournalError), which is no crash.
    guard let written = try? encoder.encode(journal) else { return 0 }
    guard case .journal(let again) = JournalStore.decode(Array(written)) else {
        fatalError("fuzz invariant: a journal written does not read back: \(String(decoding: written, as: UTF8.self))")
    }
    require(again == journal, "a journal changed on being written and read again")
    return 0
}
