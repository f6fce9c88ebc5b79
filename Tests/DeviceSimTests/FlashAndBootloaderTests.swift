import DFUCore
import DeviceSim
import Testing

/// The flash and MCUboot models on their own.
@Suite struct FlashAndBootloaderTests {
    @Test func programmingOnlyClearsBitsLikeNORFlash() throws {
        var slot = FlashSlot(size: 8192, timing: .instant)
        #expect(slot.isErased)
        _ = slot.write([0xF0, 0x0F], at: 10)
        _ = slot.write([0x3C, 0xFF], at: 10)
        #expect(Array(slot.read(10 ..< 12)) == [0x30, 0x0F])
        #expect(slot.write([1, 2, 3], at: 8190) == .failure(.outOfBounds(offset: 8190, length: 3, size: 8192)))
    }

    @Test func eraseWorksOnWholePagesAndTakesPageTime() throws {
        var slot = FlashSlot(size: 4 * 4096, timing: .nRF52840)
        _ = slot.write([UInt8](repeating: 0, count: 4 * 4096), at: 0)
        #expect(slot.erase(100 ..< 4097) == .milliseconds(170))
        #expect(slot.isErased(0 ..< 8192))
        #expect(!slot.isErased(8192 ..< 8193))
        #expect(slot.pageCount == 4)
    }

    @Test func writeTimeFollowsTheProgrammingRate() {
        let timing = FlashTiming(pageEraseTime: .milliseconds(1), writeBytesPerSecond: 100_000)
        #expect(timing.writeTime(bytes: 50_000) == .milliseconds(500))
        #expect(FlashTiming.instant.writeTime(bytes: 1 << 20) == .zero)
    }

    @Test func syntheticRunningImageIsAValidImageOfItsVersion() throws {
        let version = ImageVersion(major: 3, minor: 1, revision: 4, build: 1)
        let bytes = try SyntheticImage.make(version: version)
        let report = try ImageVerifier.verify(bytes: bytes, key: nil)
        #expect(report.version == version && report.hash == .passed)
        #expect(try SyntheticImage.make(version: version) == bytes)
        #expect(try SyntheticImage.make(version: ImageVersion(major: 3, minor: 1, revision: 5)) != bytes)
    }

    @Test func bootWithNothingPendingTakesOnlyTheStartUp() throws {
        var boot = try MCUbootBootloader(slotSize: 0x20000, key: try PublicKey.defaultBootloaderKey(),
                                         runningImage: try SyntheticImage.make(version: ImageVersion(major: 1, minor: 0, revision: 0)))
        let report = boot.boot()
        #expect(report.outcome == .normal && report.duration == .milliseconds(300))
        #expect(report.running?.versionString == "1.0.0")
    }

    @Test func scratchModeIsReportedAsModeOne() throws {
        let boot = try MCUbootBootloader(slotSize: 0x20000, key: try PublicKey.defaultBootloaderKey(),
                                         swapMode: .usingScratch,
                                         runningImage: try SyntheticImage.make(version: ImageVersion(major: 1, minor: 0, revision: 0)))
        #expect(boot.swapMode.reportedMode == .swapUsingScratch)
        #expect(boot.maxImageSize == 0x20000 - 4096)
        var h = DeviceHarness(try VirtualDevice(configuration: DeviceConfiguration(
            identity: .init("x"), runningVersion: ImageVersion(major: 1, minor: 0, revision: 0),
            bootloaderKey: try PublicKey.defaultBootloaderKey(), swapMode: .usingScratch)))
        #expect(try h.call(BootloaderInfoRequest.mode).get().mode == 1)
    }

    @Test func runningImageLargerThanTheSlotIsRefused() throws {
        let image = try SyntheticImage.make(version: ImageVersion(major: 1, minor: 0, revision: 0), bodySize: 0x20000)
        #expect(throws: BootloaderSetupError.self) {
            try MCUbootBootloader(slotSize: 0x20000, key: try PublicKey.defaultBootloaderKey(), runningImage: image)
        }
    }
}
