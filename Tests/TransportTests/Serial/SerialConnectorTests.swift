import Foundation
import Testing
import SerialTransport
import Transport

/// `SerialConnector`: peers, generations, waiting out a missing or busy port, and by-id reopening,
/// with pseudo-terminals linked into a fake `/dev` to play boards that vanish and come back.
@Suite(.timeLimit(.minutes(2))) struct SerialConnectorTests {
    typealias Support = SerialTestSupport
    let port = DatagramGATTFace.test.characteristic

    @Test func readsThePathOfASerialPeer() {
        #expect(SerialConnector.path(of: PeerIdentity("serial:/dev/ttyACM0")) == "/dev/ttyACM0")
        #expect(SerialConnector.path(of: PeerIdentity("serial:/dev/serial/by-id/usb-X-if00")) == "/dev/serial/by-id/usb-X-if00")
        for text in ["serial:ttyACM0", "serial:", "serial:/", "/dev/ttyACM0", "AA:BB:CC:DD:EE:FF", "udp:1.2.3.4:1337"] {
            #expect(SerialConnector.path(of: PeerIdentity(text)) == nil)
        }
    }

    @Test func refusesAPeerThatIsNoSerialPath() async {
        let connector = SerialConnector(presenting: .test, settings: .standard)
        await #expect(throws: LinkError.peerNotFound(PeerIdentity("serial:ttyACM0"))) {
            _ = try await connector.connect(to: PeerIdentity("serial:ttyACM0"), deadline: Support.soon())
        }
        #expect(connector.latestGeneration == LinkGeneration(0))
    }

    @Test func generationsRiseFromOneAndThePeerIsKeptAsGiven() async throws {
        let pty = try PseudoTerminal.open()
        let connector = SerialConnector(presenting: .test, settings: .standard, maxWriteSize: 777)
        let peer = PeerIdentity("serial:\(pty.devicePath)")
        let first = try await connector.connect(to: peer, deadline: Support.soon())
        #expect(first.parameters.generation == LinkGeneration(1))
        #expect(first.parameters.peer == peer)
        #expect(first.parameters.maxWriteWithoutResponse == 777)
        await first.disconnect()
        // A failed attempt in between uses no generation.
        await #expect(throws: LinkError.self) {
            _ = try await connector.connect(to: PeerIdentity("serial:/dev/null"), deadline: Support.soon())
        }
        let second = try await connector.connect(to: peer, deadline: Support.soon())
        #expect(second.parameters.generation == LinkGeneration(2))
        #expect(connector.latestGeneration == LinkGeneration(2))
        let received = Task { try await Support.bytes(of: second, count: 2) }
        try await pty.write([4, 2])
        #expect(try await received.value == [4, 2])
        await second.disconnect()
        await pty.close()
    }

    @Test func reportsAPortThatIsNoTerminalAtOnce() async {
        let connector = SerialConnector(presenting: .test, settings: .standard)
        let started = ContinuousClock.now
        await #expect(throws: LinkError.unavailable(SerialPortError.notATerminal(path: "/dev/null").description)) {
            _ = try await connector.connect(to: PeerIdentity("serial:/dev/null"), deadline: Support.soon())
        }
        // Not waited out: far below the 60 s deadline.
        #expect(started.duration(to: .now) < .seconds(30))
    }

    @Test func waitsForAMissingPortAndConnectsWhenItAppears() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let path = "\(scratch.path)/ttyACM0"
        let connector = SerialConnector(presenting: .test, settings: .standard)
        let connecting = Task { try await connector.connect(to: PeerIdentity("serial:\(path)"), deadline: Support.soon()) }
        let pty = try PseudoTerminal.open(linkedAt: path)
        let link = try await connecting.value
        #expect(link.parameters.generation == LinkGeneration(1))
        let heard = Task { try await Support.bytes(of: pty, count: 3) }
        try await link.writeWithoutResponse([7, 8, 9], to: port)
        #expect(try await heard.value == [7, 8, 9])
        await link.disconnect()
        await pty.close()
    }

    @Test func givesUpOnAMissingPortAtTheDeadlineWithTheMissingText() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let path = "\(scratch.path)/ttyACM0"
        let connector = SerialConnector(presenting: .test, settings: .standard)
        await #expect(throws: LinkError.unavailable(SerialPortError.missing(path: path).description)) {
            _ = try await connector.connect(to: PeerIdentity("serial:\(path)"), deadline: .now + .seconds(1))
        }
        #expect(connector.latestGeneration == LinkGeneration(0))
    }

    @Test func waitsWhileThePortIsBusyAndConnectsOnceItIsFree() async throws {
        let pty = try PseudoTerminal.open()
        let holder = try SerialLink.open(pty.devicePath, presenting: .test)
        let connector = SerialConnector(presenting: .test, settings: .standard)
        let peer = PeerIdentity("serial:\(pty.devicePath)")
        await #expect(throws: LinkError.unavailable(SerialPortError.busy(path: pty.devicePath).description)) {
            _ = try await connector.connect(to: peer, deadline: .now + .seconds(1))
        }
        let connecting = Task { try await connector.connect(to: peer, deadline: Support.soon()) }
        await holder.disconnect()
        let link = try await connecting.value
        await link.disconnect()
        await pty.close()
    }

    @Test func aCancelledConnectThrowsCancelled() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let connector = SerialConnector(presenting: .test, settings: .standard)
        let connecting = Task { try await connector.connect(to: PeerIdentity("serial:\(scratch.path)/none"), deadline: Support.soon()) }
        connecting.cancel()
        await #expect(throws: LinkError.cancelled) { _ = try await connecting.value }
    }

    @Test func reopensThePortByItsByIDNameAfterItComesBackUnderAnotherName() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let dev = try scratch.folder("dev")
        let original = "\(dev)/ttyACM0"
        let byID = "\(dev)/serial/by-id/usb-Test_Board_0001-if00"
        let connector = SerialConnector(presenting: .test, settings: .standard, devRoot: dev)
        let peer = PeerIdentity("serial:\(original)")

        // The board as ttyACM0, with udev's relative by-id link to it.
        let board = try PseudoTerminal.open(linkedAt: original)
        try scratch.link("dev/serial/by-id/usb-Test_Board_0001-if00", to: "../../ttyACM0")
        let first = try await connector.connect(to: peer, deadline: Support.soon())
        #expect((first as? SerialLink)?.path == original)
        #expect(connector.stableName(for: original) == byID)
        await first.disconnect()

        // It resets and comes back as ttyACM1; udev moves the by-id link.
        await board.close()
        let again = try PseudoTerminal.open(linkedAt: "\(dev)/ttyACM1")
        try scratch.link("dev/serial/by-id/usb-Test_Board_0001-if00", to: "../../ttyACM1")
        let second = try await connector.connect(to: peer, deadline: Support.soon())
        #expect((second as? SerialLink)?.path == byID)
        #expect(second.parameters.peer == peer)
        let heard = Task { try await Support.bytes(of: again, count: 1) }
        try await second.writeWithoutResponse([0x5A], to: port)
        #expect(try await heard.value == [0x5A])
        await second.disconnect()

        // Without the by-id link, the path as given.
        await again.close()
        try FileManager.default.removeItem(atPath: byID)
        let third = try PseudoTerminal.open(linkedAt: original)
        let fallback = try await connector.connect(to: peer, deadline: Support.soon())
        #expect((fallback as? SerialLink)?.path == original)
        #expect(fallback.parameters.generation == LinkGeneration(3))
        await fallback.disconnect()
        await third.close()
    }

    @Test func usesAGivenByIDPathAsItIs() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let dev = try scratch.folder("dev")
        let board = try PseudoTerminal.open(linkedAt: "\(dev)/ttyACM0")
        let byID = try scratch.link("dev/serial/by-id/usb-Test_Board_0002-if00", to: "../../ttyACM0")
        let connector = SerialConnector(presenting: .test, settings: .standard, devRoot: dev)
        let link = try await connector.connect(to: PeerIdentity("serial:\(byID)"), deadline: Support.soon())
        #expect((link as? SerialLink)?.path == byID)
        #expect(connector.stableName(for: byID) == nil)
        await link.disconnect()
        await board.close()
    }
}
