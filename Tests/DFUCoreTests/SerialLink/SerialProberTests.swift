@testable import DFUCore
import DeviceSim
import Testing
import Transport

/// `SerialProber` on a serial line in memory (`SerialPipe`): the virtual device served in either
/// SMP framing, a Nordic bootloader's ping answer, a line nobody answers, and a port that vanishes;
/// and the probes' listeners on their own.
@Suite(.timeLimit(.minutes(1))) struct SerialProberTests {
    static let timeout = Duration.milliseconds(300)

    /// The virtual device served on a fresh pipe, and the client's link to it.
    private static func served(_ serving: SerialServeOptions) async throws -> (VirtualDeviceSerialServer, any Link) {
        let pipe = SerialPipe(characteristic: SMPGATT.characteristic)
        let device = try VirtualDevice(configuration: try SimOptions.parse("sim").deviceConfiguration(framing: .datagram))
        let server = VirtualDeviceSerialServer(device: device, port: pipe.openDeviceEnd(), serving: serving, clock: .realTime(),
                                               reopen: { () async throws(SimSerialPortError) -> any SimSerialPort in pipe.openDeviceEnd() })
        await server.start()
        return (server, try await pipe.connector.connect(to: PeerIdentity("serial:/dev/ttyTEST"), deadline: .now + .seconds(5)))
    }

    private static func label(_ outcome: SerialProber.Outcome) -> String {
        switch outcome {
        case .answered(let probe): return probe.label
        case .silent: return "silent"
        case .lost(let reason): return "lost: \(reason)"
        }
    }

    @Test func registryAsksSMPConsoleThenRawThenNordic() {
        #expect(ProtocolRegistry.serialProbes.map(\.jsonName) == ["smp-console", "smp-raw", "nordic-secure-dfu"])
        #expect(ProtocolRegistry.serialProbes.map(\.label) == ["SMP (console)", "SMP (raw)", "Nordic Secure DFU"])
        #expect(ProtocolRegistry.serialProbes.map(\.deviceOptions) == [[], ["raw"], []])
        // The ping: an END to close what earlier probes left, then 09 <id> END.
        #expect(NordicSerialProbe.ping.request == [0xC0, 0x09, NordicSerialProbe.id, 0xC0])
    }

    @Test(arguments: [(SMPStreamFraming.console, "SMP (console)"), (.raw, "SMP (raw)")])
    func theVirtualDeviceAnswersInItsFraming(framing: SMPStreamFraming, expected: String) async throws {
        var serving = SerialServeOptions.fastLine
        serving.framing = framing
        let (server, link) = try await Self.served(serving)
        let outcome = await SerialProber(timeout: .seconds(2)).run(on: link, characteristic: SMPGATT.characteristic)
        #expect(Self.label(outcome) == expected)
        await link.disconnect()
        await server.stop()
    }

    /// Log lines between frames (a Zephyr console) do not hide the answer.
    @Test func consoleNoiseDoesNotHideTheAnswer() async throws {
        var serving = SerialServeOptions.fastLine
        serving.noiseEvery = 1
        let (server, link) = try await Self.served(serving)
        let outcome = await SerialProber(timeout: .seconds(2)).run(on: link, characteristic: SMPGATT.characteristic)
        #expect(Self.label(outcome) == "SMP (console)")
        await link.disconnect()
        await server.stop()
    }

    @Test func aNordicBootloaderAnswersThePing() async throws {
        let pipe = SerialPipe(characteristic: SMPGATT.characteristic)
        let port = pipe.openDeviceEnd()
        let bootloader = Task {
            var decoder = SLIPDecoder(maximumFrameSize: 64)
            for await bytes in port.received {
                for case .frame(let frame) in decoder.receive(bytes) {
                    guard case .ping(let id) = NordicSerialRequest(decoding: frame) else { continue }
                    _ = await port.send(NordicSerialResponse.ping(id: id).framed)
                }
            }
        }
        let link = try await pipe.connector.connect(to: PeerIdentity("serial:/dev/ttyTEST"), deadline: .now + .seconds(5))
        let outcome = await SerialProber(timeout: Self.timeout).run(on: link, characteristic: SMPGATT.characteristic)
        #expect(Self.label(outcome) == "Nordic Secure DFU")
        await link.disconnect()
        await port.close()
        bootloader.cancel()
    }

    @Test func aLineNobodyAnswersIsSilentAfterOneTimeoutPerProbe() async throws {
        let pipe = SerialPipe(characteristic: SMPGATT.characteristic)
        let port = pipe.openDeviceEnd()
        let link = try await pipe.connector.connect(to: PeerIdentity("serial:/dev/ttyTEST"), deadline: .now + .seconds(5))
        let start = ContinuousClock.now
        let outcome = await SerialProber(timeout: .milliseconds(100)).run(on: link, characteristic: SMPGATT.characteristic)
        #expect(Self.label(outcome) == "silent")
        #expect(ContinuousClock.now - start >= .milliseconds(300))
        #expect(pipe.bytesFromClient == ProtocolRegistry.serialProbes.map(\.request.count).reduce(0, +))
        await link.disconnect()
        await port.close()
    }

    @Test func aPortThatVanishesWhileAskedIsLost() async throws {
        let pipe = SerialPipe(characteristic: SMPGATT.characteristic)
        let port = pipe.openDeviceEnd()
        let link = try await pipe.connector.connect(to: PeerIdentity("serial:/dev/ttyTEST"), deadline: .now + .seconds(5))
        let vanish = Task {
            for await _ in port.received {
                await port.close()
                return
            }
        }
        let outcome = await SerialProber(timeout: .seconds(5)).run(on: link, characteristic: SMPGATT.characteristic)
        #expect(Self.label(outcome) == "lost: the port went away")
        vanish.cancel()
    }

    /// Any response to the echo counts (a refusal too); the request itself, handed back by a
    /// console that echoes its input, does not, nor a response with another sequence number.
    @Test func theSMPListenerTakesOnlyTheResponseToItsRequest() throws {
        let sequence: UInt8 = 0xD1
        func listener() -> any SerialProbeListener { SMPSerialProbe.Listener(framer: SMPStreamFramer(framing: .raw), sequence: sequence) }
        let request = OSEchoRequest(text: SMPSerialProbe.text).packet(sequence: sequence)
        var own = listener()
        let tookOwnRequest = own.receive(try request.encoded())
        #expect(!tookOwnRequest)
        var refused = listener()
        let refusal = SMPPacket.response(to: request.header, error: .mcumgr(.notSupported))
        let tookRefusal = refused.receive(try refusal.encoded())
        #expect(tookRefusal)
        var other = listener()
        let tookOtherSequence = other.receive(try OSEchoResponse(text: "x").response(to: OSEchoRequest(text: "x").packet(sequence: 7).header).encoded())
        #expect(!tookOtherSequence)
        // Split anywhere.
        var split = listener()
        let answer = try OSEchoResponse(text: SMPSerialProbe.text).response(to: request.header).encoded()
        let tookHalf = split.receive(Array(answer.prefix(5)))
        #expect(!tookHalf)
        let tookRest = split.receive(Array(answer.dropFirst(5)))
        #expect(tookRest)
    }

    @Test func theNordicListenerTakesOnlyItsPingAnswer() {
        var listener = NordicSerialProbe.Listener()
        let tookOtherPing = listener.receive(NordicSerialResponse.ping(id: NordicSerialProbe.id &+ 1).framed)
        #expect(!tookOtherPing)
        let tookOtherAnswer = listener.receive(NordicSerialResponse.protocolVersion(1).framed)
        #expect(!tookOtherAnswer)
        let tookPartOfItsPing = listener.receive([0x60, 0x09, 0x01])
        #expect(!tookPartOfItsPing)
        let tookItsPing = listener.receive([NordicSerialProbe.id, 0xC0])
        #expect(tookItsPing)
    }
}
