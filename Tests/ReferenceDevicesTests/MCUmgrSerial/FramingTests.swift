import Foundation
@testable import ReferenceDevices
import Testing

@Suite struct MCUmgrSerialFramingTests {
    typealias Serial = MCUmgrSerial

    @Test func crc16MatchesTheXmodemCheckValue() {
        #expect(Serial.CRC16.xmodem(Array("123456789".utf8)) == 0x31C3)
        let packet: [UInt8] = [1, 2, 3, 4, 5]
        let crc = Serial.CRC16.xmodem(packet)
        #expect(Serial.CRC16.xmodem(packet + [UInt8(crc >> 8), UInt8(crc & 0xFF)]) == 0)
    }

    @Test func base64DecoderSkipsNewlinesAndDropsAShortTail() {
        let decode = { (text: String) in Serial.Base64.decode(Array(text.utf8)[...], capacity: 100) }
        #expect(decode("AQID\n") == .bytes([1, 2, 3]))
        #expect(decode("AQ\r\nID") == .bytes([1, 2, 3]))
        #expect(decode("AQIDBA") == .bytes([1, 2, 3]))          // "BA" dropped silently
        #expect(decode("AQID\r") == .invalid)                   // a lone CR is not in the alphabet
        #expect(decode("AQ==AQID") == .invalid)                 // data after padding
        #expect(decode("A===") == .invalid)                     // three pads
        #expect(decode("AQ ID") == .invalid)                    // space inside a line
        #expect(decode("AQID   ") == .bytes([1, 2, 3]))         // spaces at the end are fine
        #expect(Serial.Base64.decode(Array("AQIDBAUG".utf8)[...], capacity: 5) == .noRoom)
        #expect(Serial.Base64.encode([1, 2, 3, 4]) == Array("AQIDBA==".utf8))
    }

    @Test func zephyrLineBreakingKeepsLinesWithin127AndContinuationsAt123() throws {
        let packet = (0..<600).map { UInt8($0 & 0xFF) }
        let wire = Serial.zephyrConsoleFrames(packet)
        var reader = TestConsole.Reader()
        reader.feed(wire)
        #expect(reader.packets == [packet])
        #expect(reader.lineLengths.first == 127)
        // max_input loses 3 on the first line and never gets them back: 90 body bytes, 120 chars.
        #expect(reader.lineLengths.dropFirst().dropLast().allSatisfy { $0 == 123 })
        #expect(reader.lineLengths.allSatisfy { $0 <= 127 })
    }

    @Test func zephyrLineBreakingNeverSplitsTheCRC() {
        // 93 - 3 + ... : sizes around a full first line.
        for size in 85...100 {
            let packet = (0..<size).map { UInt8(truncatingIfNeeded: $0 * 7) }
            var reader = TestConsole.Reader()
            reader.feed(Serial.zephyrConsoleFrames(packet))
            #expect(reader.packets == [packet], "size \(size)")
            #expect(reader.badFrames == 0)
        }
    }

    @Test func mcubootCutsTheEncodedPacketEvery124Characters() {
        let packet = (0..<300).map { UInt8($0 & 0xFF) }
        var reader = TestConsole.Reader()
        reader.feed(Serial.mcubootConsoleFrames(packet))
        #expect(reader.packets == [packet])
        #expect(reader.lineLengths.dropLast().allSatisfy { $0 == 127 })
    }

    @Test func uartDriverDropsALineWhenNoBufferIsFree() {
        var receiver = Serial.UARTLineReceiver(bufferSize: 128, bufferCount: 2)
        var lines: [[UInt8]] = []
        var dropped = 0
        for line in ["a\n", "b\n", "c\n"] {
            for byte in line.utf8 {
                for event in receiver.receive(byte) {
                    if case .line(let l) = event { lines.append(l) }
                    if event == .droppedNoBuffer { dropped += 1 }
                }
            }
        }
        #expect(lines == [Array("a\n".utf8), Array("b\n".utf8)])
        #expect(dropped == 1)
        receiver.freeBuffer()
        #expect(receiver.receive(UInt8(ascii: "d")) == [])
        #expect(receiver.receive(UInt8(ascii: "\n")) == [.line(Array("d\n".utf8))])
    }

    @Test func uartDriverIgnoresALineLongerThanItsBufferUpToTheNewline() {
        var receiver = Serial.UARTLineReceiver(bufferSize: 4, bufferCount: 2)
        var events: [Serial.UARTLineReceiver.Event] = []
        for byte in "abcd\nabcde\nxy\n".utf8 { events += receiver.receive(byte) }
        // "abcd\n" is 5 bytes: the newline itself does not fit.
        #expect(events == [.droppedTooLong, .droppedTooLong, .line(Array("xy\n".utf8))])
        #expect(receiver.freeBuffers == 1)
    }

    @Test func reassemblyFollowsMcumgrSerialProcessFrag() {
        var pool = Serial.NetbufPool(count: 4, size: 384)
        var context = Serial.SerialReassembly()
        let packet = TestSMP.request(write: false, group: 0, command: 0, .map([("d", .text("hi"))])).bytes
        let wire = TestConsole.frame(packet)
        #expect(context.console(wire, pool: &pool) == .packet(packet))
        #expect(pool.inUse == 1)  // the packet's netbuf, now the caller's

        // A continuation with nothing started, a line that is not a frame.
        #expect(context.console([0x04, 0x14] + Array("AAAA\n".utf8), pool: &pool) == .dropped(.continuationWithoutStart))
        #expect(context.console(Array("hello\n".utf8), pool: &pool) == .notFrame)
        #expect(context.holdsNetbuf)  // kept although the line was not SMP

        var corrupted = wire
        corrupted[10] = corrupted[10] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(context.console(corrupted, pool: &pool) == .dropped(.crcMismatch))

        let big = TestConsole.frame([UInt8](repeating: 7, count: 400))
        var outcome = Serial.SerialReassembly.Outcome.incomplete
        var start = 0
        while let end = big[start...].firstIndex(of: 0x0A) {
            outcome = context.console(Array(big[start...end]), pool: &pool)
            start = end + 1
            if outcome != .incomplete { break }
        }
        #expect(outcome == .dropped(.noRoom))  // 2 + 400 + 2 bytes do not fit in 384
    }

    @Test func reassemblyLosesTheLineWhenThePoolIsEmpty() {
        var pool = Serial.NetbufPool(count: 1, size: 384)
        let taken = pool.allocate()
        #expect(taken)
        var context = Serial.SerialReassembly()
        let wire = TestConsole.frame(TestSMP.request(write: false, group: 0, command: 0).bytes)
        #expect(context.console(wire, pool: &pool) == .noNetbuf)
    }
}
