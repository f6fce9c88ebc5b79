import Testing
@testable import DFUCore

@Suite struct SMPSerialBase64Tests {
    /// RFC 4648 §10.
    @Test func rfc4648Vectors() {
        let vectors = [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="),
                       ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")]
        for (plain, encoded) in vectors {
            #expect(SMPSerialBase64.encode(ascii(plain)) == ascii(encoded))
            #expect(SMPSerialBase64.decode(ascii(encoded)[...]) == ascii(plain))
            #expect(SMPSerialBase64.encodedCount(plain.utf8.count) == encoded.utf8.count)
        }
    }

    @Test func everyByteValueRoundTrips() {
        let all = (0...255).map { UInt8($0) }
        for count in 0...all.count {
            let bytes = Array(all.prefix(count))
            #expect(SMPSerialBase64.decode(SMPSerialBase64.encode(bytes)[...]) == bytes)
        }
        // "+" and "/" are the alphabet's last two characters.
        #expect(SMPSerialBase64.encode([0xFB, 0xFF, 0xBF]) == ascii("+/+/"))
    }

    @Test func refusesWhatIsNotWholePaddedGroups() {
        for bad in ["Z", "Zg", "Zg=", "Zm9vY", "Zg==Zg==", "Z===", "Zm=v", "Zm9v\r", "Zm 9", "Zm9-", "Zm9_",
                    "Zg=A", "====", "Zm9\u{0}"] {
            #expect(SMPSerialBase64.decode(ascii(bad)[...]) == nil, "\(bad)")
        }
        #expect(SMPSerialBase64.decode([0x5A, 0x6D, 0x39, 0xC3][...]) == nil)
    }

    @Test func decodesASliceInTheMiddleOfAnArray() {
        let text = ascii("..Zm9vYmE=..")
        #expect(SMPSerialBase64.decode(text[2..<10]) == ascii("fooba"))
    }
}
