import Testing
@testable import Transport

/// The one hex formatter every target prints digests, codes and addresses with.
@Suite struct HexTests {
    @Test func digitsArePaddedToTheWidthAndAWiderValueKeepsThemAll() {
        #expect(hexDigits(UInt8(0x0E), width: 2) == "0E")
        #expect(hexDigits(UInt32(0xBEEF), width: 8) == "0000BEEF")
        #expect(hexDigits(UInt32(0xBEEF), width: 8, uppercase: false) == "0000beef")
        #expect(hexDigits(UInt32(0x12345), width: 4) == "12345")
        #expect(hexDigits(0, width: 0) == "0")
    }

    @Test func bytesAreTwoLowerCaseDigitsEach() {
        #expect(hexString([0x00, 0x0A, 0xFF, 0x10]) == "000aff10")
        #expect(hexString([UInt8]()) == "")
    }
}
