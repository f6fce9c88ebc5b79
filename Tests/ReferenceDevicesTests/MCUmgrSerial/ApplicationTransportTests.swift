@testable import ReferenceDevices
import Testing

/// The application's UART driver, transport and work queues under load and noise.
@Suite struct MCUmgrSerialTransportTests {
    static func echo(_ text: String, sequence: UInt8 = 0) -> TestSMP {
        .request(write: true, group: 0, command: 0, sequence: sequence, .map([("d", .text(text))]))
    }

    @Test func linesArrivingFasterThanTheyAreDecodedAreDroppedWhenBothBuffersAreTaken() {
        var config = MCUmgrSerialConfiguration.test()
        config.lineDecodeTime = .milliseconds(30)  // a line takes ~3 ms to arrive here
        var rig = SerialRig(config)
        let requests = (0..<4).map { Self.echo("x", sequence: UInt8($0)) }
        rig.send(requests.flatMap { TestConsole.frame($0.bytes) })
        rig.settle()
        #expect(rig.device.counters.linesDroppedNoBuffer >= 1)
        let answered = rig.reader.packets.compactMap { TestSMP(parsing: $0)?.sequence }
        #expect(answered.count < 4)
        #expect(answered.first == 0)
    }

    @Test func onTheSystemWorkQueueLinesWaitBehindAFlashEraseAndAreLost() {
        let image = Samples.image(major: 1, minor: 1, bodySize: 20_000)
        for queues in [MCUmgrSerialConfiguration.WorkQueues.systemWorkQueueOnly, .dedicatedSMPWorkQueue] {
            var config = MCUmgrSerialConfiguration.test()
            config.workQueues = queues
            var rig = SerialRig(config)
            _ = rig.uploadChunk(image, off: 0, count: 200)  // slot 1 no longer empty
            // A new upload erases the image's pages first (img_mgmt_erase_image_data, ~0.5 s)
            // while the client already sends an echo behind it.
            let first = TestConsole.frame(TestSMP.request(write: true, group: 1, command: 1, .map([
                ("image", .uint(0)), ("len", .uint(UInt64(image.count))), ("off", .uint(0)),
                ("data", .bytes(Array(image.prefix(200)))),
            ])).bytes)
            let echoes = (1...3).flatMap { TestConsole.frame(Self.echo("ping", sequence: UInt8($0)).bytes) }
            rig.send(first + echoes)
            rig.settle()
            let answered = rig.reader.packets.compactMap { TestSMP(parsing: $0) }.filter { $0.group == 0 }.count
            if queues == .systemWorkQueueOnly {
                #expect(rig.device.counters.linesDroppedNoBuffer >= 1)
                #expect(answered < 3)
            } else {
                // Lines are decoded during the erase; the third echo then finds no netbuf (upload +
                // its response + two queued echoes).
                #expect(rig.device.counters.linesDroppedNoBuffer == 0)
                #expect(rig.device.counters.fragmentsDroppedNoNetbuf == 1)
                #expect(answered == 2)
            }
        }
    }

    @Test func requestsQueuedBehindASlowOneExhaustTheNetbufPool() {
        var rig = SerialRig(.test())
        _ = rig.uploadChunk(Samples.image(major: 1, minor: 1, bodySize: 40_000), off: 0, count: 200)
        let slowErase = TestConsole.frame(TestSMP.request(write: true, group: 1, command: 5).bytes)  // ~10 s
        let echoes = (1...4).flatMap { TestConsole.frame(Self.echo("ping", sequence: UInt8($0)).bytes) }
        rig.send(slowErase + echoes)
        rig.settle()
        // Erase request + its response buffer + two queued echoes fill the 4 netbufs.
        #expect(rig.device.counters.fragmentsDroppedNoNetbuf >= 1)
        let echoed = rig.reader.packets.compactMap { TestSMP(parsing: $0) }.filter { $0.group == 0 }.map(\.sequence)
        #expect(echoed == [1, 2])
    }

    @Test func withoutAResponseBufferTheAnswerIsENOMEMInTheRequestsBuffer() {
        var config = MCUmgrSerialConfiguration.test()
        config.netbufCount = 2
        config.workQueues = .systemWorkQueueOnly
        var rig = SerialRig(config)
        _ = rig.uploadChunk(Samples.image(major: 1, minor: 1, bodySize: 40_000), off: 0, count: 200)
        let slowErase = TestConsole.frame(TestSMP.request(write: true, group: 1, command: 5).bytes)
        let short = TestConsole.frame(Self.echo("b", sequence: 7).bytes)
        let long = TestConsole.frame(Self.echo(String(repeating: "c", count: 150), sequence: 8).bytes)
        rig.send(slowErase + short + long)
        rig.settle()
        // After the erase the system work queue decodes the short echo (queued, 1 netbuf) and the
        // long echo's first line (reassembly, 2nd netbuf): the short echo finds no response buffer.
        let answers = rig.reader.packets.compactMap { TestSMP(parsing: $0) }.filter { $0.group == 0 }
        #expect(answers.first?.sequence == 7)
        #expect(answers.first?.body == .map([("rc", .uint(2))]))
    }

    @Test func aCorruptedFrameIsCountedAndNotAnswered() {
        var rig = SerialRig(.test())
        var frame = TestConsole.frame(Self.echo("hello").bytes)
        frame[8] = frame[8] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(rig.request(Self.echo("x")).count == 1)
        rig.send(frame)
        rig.settle()
        #expect(rig.device.counters.crcFailures == 1)
        #expect(rig.reader.packets.count == 1)
    }

    @Test func aRequestLargerThanANetbufIsDropped() {
        var rig = SerialRig(.test())
        #expect(rig.request(Self.echo(String(repeating: "z", count: 400))).isEmpty)
        #expect(rig.device.counters.framesDropped["noRoom"] == 1)
        #expect(rig.request(Self.echo("ok")).first?.body == .map([("r", .text("ok"))]))
    }

    @Test func textBetweenFramesIsIgnoredOnInputAndPrintedOnOutputOnDemand() throws {
        var config = MCUmgrSerialConfiguration.test()
        config.noise = .init(every: 2, line: "[00:00:00.100,000] <inf> app: tick\r\n", bootBanner: "*** Booting Zephyr OS ***\r\n")
        var rig = SerialRig(config)
        #expect(rig.reader.text == ["*** Booting Zephyr OS ***\r\n"])
        for index in 0..<4 {
            rig.send(Array("uart:~$ garbage line \(index)\r\n".utf8) + [0x06, 0x09] + Array("!!!!\n".utf8))
            #expect(rig.request(Self.echo("n\(index)", sequence: UInt8(index))).first?.body == .map([("r", .text("n\(index)"))]))
        }
        #expect(rig.reader.text.filter { $0.contains("tick") }.count == 2)
        #expect(rig.reader.badFrames == 0)
        #expect(rig.device.counters.framesDropped["invalidBase64"] == 4)
    }

    @Test func aPacketMayCarrySeveralRequestsEachAnswered() {
        var rig = SerialRig(.test())
        let both = TestSMP(op: 2, group: 0, command: 0, sequence: 1, payload: TestCBOR.map([("d", .text("a"))]).encoded).bytes
            + TestSMP(op: 2, group: 0, command: 0, sequence: 2, payload: TestCBOR.map([("d", .text("b"))]).encoded).bytes
        rig.send(TestConsole.frame(both))
        rig.settle()
        #expect(rig.reader.packets.compactMap { TestSMP(parsing: $0)?.sequence } == [1, 2])
    }

    @Test func rawFramingCarriesBarePackets() {
        var config = MCUmgrSerialConfiguration.test()
        config.applicationFraming = .raw
        var rig = SerialRig(config)
        let answer = rig.request(Self.echo("raw"), raw: true)
        #expect(answer.first?.body == .map([("r", .text("raw"))]))
        // A byte that makes the header impossible (op 7) is thrown away with what came before.
        rig.send([0xFF])
        rig.settle()
        #expect(rig.device.counters.framesDropped.isEmpty)  // 1 byte: no header yet
        rig.send([UInt8](repeating: 0, count: 7))
        rig.settle()
        #expect(rig.device.counters.framesDropped["rawNotSMP"] == 1)
        #expect(rig.request(Self.echo("again"), raw: true).first?.body == .map([("r", .text("again"))]))
    }

    @Test func theApplicationAcceptsCRLFLineEndsWhereMCUbootDoesNot() {
        var rig = SerialRig(.test())
        var frame = TestConsole.frame(Self.echo("crlf").bytes)
        frame.insert(UInt8(ascii: "\r"), at: frame.count - 1)  // Zephyr's base64 skips "\r\n"
        rig.send(frame)
        rig.settle()
        #expect(rig.reader.packets.compactMap { TestSMP(parsing: $0)?.body } == [.map([("r", .text("crlf"))])])
    }

    @Test func anIdleApplicationHasNoDeadlineAndDropsAreNoted() {
        var config = MCUmgrSerialConfiguration.test()
        config.uartRxBufferCount = 1
        config.lineDecodeTime = .milliseconds(50)
        var rig = SerialRig(config)
        #expect(rig.device.nextDeadline == nil)
        rig.send(Array("a\nb\n".utf8))
        rig.settle()
        #expect(rig.log.contains(.note("uart_mcumgr: Insufficient buffers, fragment dropped")))
        #expect(rig.device.nextDeadline == nil)
    }
}
