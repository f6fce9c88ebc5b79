import Foundation
import Testing

/// `--device udp:NAME:PORT` takes a host name as `dfu sim --serve udp:NAME:PORT` does: the name is
/// looked up when dfu connects, not refused as "not an IPv4 address".
@Suite(.serialized, .endToEnd) struct UDPHostNameTests {
    @Test func localhostReachesTheServerServedOnLocalhost() throws {
        let sim = try LiveDFUProcess(sim: ["--serve", "udp:localhost:0", "--version", "1.0.0"])
        let ready = try #require(sim.ready(), "no ready line; stdout so far: \(sim.lines)")
        let device = "udp:localhost:\(ready.port)"

        let info = try DFURun.run(["info", "--device", device], timeout: 30)
        #expect(info.exitCode == 0, "\(info.output)")
        #expect(info.stdoutLines.first == "device             \(device)")
        #expect(info.stdout.contains("slot 0             1.0.0+0: running, confirmed"), "\(info.stdout)")

        // The same name in another case is the same device, written one way.
        let upper = try DFURun.run(["info", "--device", "udp:LocalHost:\(ready.port)", "--json"], timeout: 30)
        #expect(upper.exitCode == 0, "\(upper.output)")
        let object = try FlashCLITests.object(try #require(upper.stdoutLines.first))
        #expect(object["device"] as? String == device)
        #expect(sim.stop().exitCode == 0)
    }

    @Test func aNameThatIsNotAHostNameIsAUsageError() throws {
        let run = try DFURun.run(["info", "--device", "udp:bad_name:1337"], timeout: 30)
        #expect(run.exitCode == 2, "\(run.output)")
        #expect(run.stderr.contains("'bad_name' is neither an IPv4 address nor a host name"), "\(run.stderr)")
    }
}
