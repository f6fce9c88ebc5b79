@testable import ArgumentParsing
import Testing

/// Text in the man page reads as typed: nothing in it starts a roff request or escape.
@Suite struct ManPageFormatterTests {
    @Test func manualEscapesWhatRoffWouldReadAsRequestsOrEscapes() {
        #expect(ManPageFormatter.escape("--key") == "\\-\\-key")
        #expect(ManPageFormatter.escape(".zip files") == "\\&.zip files")
        #expect(ManPageFormatter.escape("'quoted'") == "\\&'quoted'")
        #expect(ManPageFormatter.escape("a\\b") == "a\\eb")
        #expect(ManPageFormatter.escape("…:EE:FF") == "\\[u2026]:EE:FF")
    }
}
