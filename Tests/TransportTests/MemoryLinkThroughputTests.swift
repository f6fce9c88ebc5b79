import Testing
import Transport

/// A check of the radio model, not a benchmark: a long burst arrives at the rate the ceiling formula
/// promises. It runs on the unpaced clock, so the arrival stamps are model time and the result does not
/// depend on how busy the test machine is (real-time speed is `make bench`'s job). Arrivals come in
/// whole connection events, so over 0.3 s of model time (10 to 40 events) the fitted rate differs from
/// the steady state by well under 1 %.
@Suite(.serialized, .timeLimit(.minutes(1))) struct MemoryLinkThroughputTests {
    @Test(arguments: [LinkProfile.fast2M, LinkProfile.typical1M])
    func burstRunsAtComputedCeiling(_ profile: LinkProfile) async throws {
        let clock = LinkClock.unpaced()
        let device = RecordingPeripheral(clock: clock)
        let link = await MemoryLink.connect(to: device, as: testPeer, profile: profile, clock: clock)
        let size = profile.maxWriteWithoutResponse
        let count = Int(0.3 * profile.writeCommandCeiling) / size

        for index in 0..<count { try await link.writeWithoutResponse(numbered(index, size: size), to: TestGATT.smp) }
        await device.waitForWrites(count)

        // Least-squares slope of bytes received over arrival time: robust to a late first or last
        // arrival when the test machine is busy (measured: endpoints alone drift by up to 2.5 % under load).
        let writes = await device.writes
        let times = writes.map(\.at.sinceOrigin.seconds)
        let bytes = (1...writes.count).map { Double($0 * size) }
        let meanTime = times.reduce(0, +) / Double(times.count), meanBytes = bytes.reduce(0, +) / Double(bytes.count)
        let covariance = zip(times, bytes).map { ($0 - meanTime) * ($1 - meanBytes) }.reduce(0, +)
        let variance = times.map { ($0 - meanTime) * ($0 - meanTime) }.reduce(0, +)
        let measured = covariance / variance
        #expect(abs(measured / profile.writeCommandCeiling - 1) < 0.01,
                "measured \(Int(measured)) B/s vs ceiling \(Int(profile.writeCommandCeiling)) B/s")
        await link.disconnect()
    }
}
