import Foundation
import Testing

/// The log scan finds what it looks for: a run of a secret written raw, as hex in either case and
/// at an odd nibble, as base64 from any offset; and passes what may be shown (a digest range,
/// repeated filler bytes, shorter runs).
@Suite struct LeakScannerTests {
    static let secret: [UInt8] = (0 ..< 64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
    static let scanner = LeakScanner([.init(name: "file", bytes: secret + [UInt8](repeating: 0, count: 32),
                                            shown: [40 ..< 64])])

    @Test(arguments: [
        Array(secret[3 ..< 19]),
        Array("sha " .utf8) + Array(secret[5 ..< 25].map { String(format: "%02x", $0) }.joined().utf8),
        Array("x7".utf8) + Array(secret[0 ..< 20].map { String(format: "%02X", $0) }.joined().utf8),
        Array("key: ".utf8) + Array(Data(secret[1 ..< 30]).base64EncodedString().utf8),
        Array("=".utf8) + Array(Data(secret[2 ..< 40]).base64EncodedString().dropFirst(5).utf8),
    ])
    func aRunOfTheSecretIsFoundHoweverWritten(output: [UInt8]) {
        #expect(!Self.scanner.leaks(in: output).isEmpty)
    }

    @Test(arguments: [
        Array(secret[40 ..< 64].map { String(format: "%02x", $0) }.joined().utf8),
        Array(String(repeating: "00", count: 40).utf8),
        Array(secret[0 ..< 15]),
        Array(secret[20 ..< 35].map { String(format: "%02x", $0) }.joined().utf8),
    ])
    func whatMayBeShownIsNotALeak(output: [UInt8]) {
        #expect(Self.scanner.leaks(in: output).isEmpty)
    }
}
