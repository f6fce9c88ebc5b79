import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A UDP port where a socket is bound but nothing ever answers (a device that is off, a wrong port
/// behind a firewall that drops, a server that is not SMP): UDP has no connection, so only the
/// device's first answer shows it is there. dfu must not say "connected" before it, must give up
/// within `--connect-timeout` (exit 5, as any device it cannot reach), and Ctrl-C must end it at
/// once with the resume hint.
@Suite(.serialized, .endToEnd) struct UDPSilentDeviceTests {
    static let image = FlashCLITests.image
    static let key = FlashCLITests.key

    @Test func flashGivesUpWithinTheConnectTimeoutWithoutSayingConnected() throws {
        let silent = try SilentUDPSocket()
        let started = Date()
        let run = try DFURun.run(["flash", Self.image, "--device", "udp:127.0.0.1:\(silent.port)", "--key", Self.key,
                                  "--connect-timeout", "3"], timeout: 40)
        let elapsed = Date().timeIntervalSince(started)
        #expect(run.exitCode == 5, "\(run.output)")
        #expect(elapsed < 5, "took \(elapsed) s with --connect-timeout 3")
        #expect(silent.datagramsReceived() > 0, "dfu sent nothing to the port")
        #expect(!run.stdout.contains("connected"), "\(run.stdout)")
        #expect(run.stderr.contains("dfu: error: udp:127.0.0.1:\(silent.port) did not answer within the connect timeout"),
                "\(run.stderr)")
        #expect(run.stderr.contains("--connect-timeout"))
    }

    @Test func flashJSONHasNoConnectedEventAndExitsFive() throws {
        let silent = try SilentUDPSocket()
        let run = try DFURun.run(["flash", Self.image, "--device", "udp:127.0.0.1:\(silent.port)", "--key", Self.key,
                                  "--connect-timeout", "1.5", "--json"], timeout: 40)
        #expect(run.exitCode == 5, "\(run.output)")
        #expect(!run.stdout.contains("\"event\":\"connected\""), "\(run.stdout)")
        let result = try FlashCLITests.object(try #require(run.stdoutLines.last))
        #expect(result["exit_code"] as? Int == 5)
        #expect((result["error"] as? String)?.contains("did not answer within the connect timeout") == true)
    }

    @Test func infoGivesUpWithinTheConnectTimeout() throws {
        let silent = try SilentUDPSocket()
        let started = Date()
        let run = try DFURun.run(["info", "--device", "udp:127.0.0.1:\(silent.port)", "--connect-timeout", "2"], timeout: 40)
        let elapsed = Date().timeIntervalSince(started)
        #expect(run.exitCode == 5, "\(run.output)")
        #expect(elapsed < 4, "took \(elapsed) s with --connect-timeout 2")
        #expect(run.stderr.contains("did not answer within the connect timeout"), "\(run.stderr)")
    }

    /// SIGINT while dfu waits for the first answer (the default connect timeout, 20 s, is far off).
    @Test func interruptOnASilentDeviceReturnsAtOnceWithTheResumeHint() throws {
        let silent = try SilentUDPSocket()
        var interrupted: Date?
        let run = try DFURun.run(["flash", Self.image, "--device", "udp:127.0.0.1:\(silent.port)", "--key", Self.key],
                                 timeout: 40) { process in
            // dfu is waiting for the answer once its first request has arrived.
            guard silent.waitForDatagram(milliseconds: 10_000) else { return }
            interrupted = Date()
            kill(process.processIdentifier, SIGINT)
        }
        let sent = try #require(interrupted, "dfu sent nothing to the port: \(run.output)")
        let elapsed = Date().timeIntervalSince(sent)
        #expect(run.exitCode == 130, "\(run.output)")
        #expect(elapsed < 2, "took \(elapsed) s after SIGINT")
        #expect(run.stderr.contains("dfu: interrupted;"), "\(run.stderr)")
        #expect(run.stderr.contains("dfu resume --device udp:127.0.0.1:\(silent.port)") || run.stderr.contains("run the same command again"),
                "\(run.stderr)")
        #expect(!run.stderr.contains("did not close in time"), "\(run.stderr)")
    }
}

/// A loopback UDP socket that receives and never answers.
final class SilentUDPSocket {
    let port: UInt16
    private let descriptor: Int32

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        try #require(descriptor >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw SilentUDPSocketError.bindFailed(errno)
        }
        self.descriptor = descriptor
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(descriptor) }

    /// Whether a datagram arrives within `milliseconds` (it is left queued).
    func waitForDatagram(milliseconds: Int32) -> Bool {
        var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&ready, 1, milliseconds) == 1
    }

    /// Reads every queued datagram; how many there were.
    func datagramsReceived() -> Int {
        var count = 0
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT)) >= 0 { count += 1 }
        return count
    }
}

enum SilentUDPSocketError: Error {
    case bindFailed(Int32)
}
