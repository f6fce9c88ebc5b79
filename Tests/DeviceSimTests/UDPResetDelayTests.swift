import DFUCore
import DeviceSim
import Testing
import Transport
import UDPTransport

/// A whole update over SMP/UDP against a device that resets long after its reset reply
/// (Zephyr's `CONFIG_MCUMGR_GRP_OS_RESET_MS` set high). UDP reports no link drop, so the engine
/// must see the device go quiet before it waits for it to come back: a fixed pause would catch the
/// old image still answering and report the update as rolled back.
@Suite(.timeLimit(.minutes(1))) struct UDPResetDelayTests {
    @Test(arguments: [250, 20_000])
    func updateSucceedsWhateverTheResetDelay(resetMilliseconds: Int) async throws {
        // Ten times faster than real time: a 20 s reset delay is 2 s of the test's time, still
        // twice as long as any fixed pause the engine could reasonably take.
        let clock = try #require(LinkClock(timeScale: 0.1))
        let options = try SimOptions.parse("sim:version=1.0.0,reset_ms=\(resetMilliseconds)")
        let server = try await VirtualDeviceUDPServer.serve(options, at: "127.0.0.1:0", clock: clock)
        defer { Task { await server.stop() } }
        let endpoint = "127.0.0.1:\(server.localAddress.port)"

        var updateOptions = UpdateOptions()
        updateOptions.deadlines.reboot = .seconds(20)
        let engine = UpdateEngine(image: try SimSamples.blinky("1.1.0"), imageName: "blinky-1.1.0.bin",
                                  key: try SimSamples.key("ecdsa-p256"), options: updateOptions,
                                  target: .init(connector: UDPConnector(presenting: .smp), peer: PeerIdentity("udp:" + endpoint)),
                                  hostPower: .mains)
        let run = engine.start()
        for await _ in run.events {}
        let result = await run.result.value
        #expect(try result.get() == ImageVersion(major: 1, minor: 1, revision: 0), "\(result)")
        let device = await server.snapshot
        #expect(device.firmwareRevision.hasPrefix("1.1.0"), "\(device.firmwareRevision)")
        #expect(device.boots.count == 1)
    }
}
