import DFUCore
import DeviceSim
import Testing

/// The checks at Execute(command) (nordic-secure-dfu.md §4.3, §10.4) and after the last object.
@Suite struct NordicBootloaderValidationTests {
    /// Sends `package`'s init packet to a bootloader built with `configuration`; the Execute answer.
    func execute(_ package: String, _ configuration: NordicBootloaderConfiguration) throws -> (NordicBench, [UInt8]) {
        let image = try NordicSamples.image(package)
        var bench = NordicBench(configuration)
        let answer = try bench.sendInitPacket(image.initPacket.bytes)
        return (bench, answer)
    }

    @Test func signatureThatDoesNotVerifyIs05() throws {
        let (bench, answer) = try execute("broken/flipped-signature-byte.zip", try NordicBench.configuration())
        #expect(answer == [0x60, 0x04, 0x05])
        #expect(!bench.bootloader.initCommandValid)
    }

    @Test func packageSignedWithAnotherKeyIs05() throws {
        let (_, answer) = try execute("app-signed-3.zip", try NordicBench.configuration(key: "TEST-ONLY-nordic-other-p256"))
        #expect(answer == [0x60, 0x04, 0x05])
    }

    @Test func signatureOfTheWrongLengthIs0A() throws {
        let (_, answer) = try execute("broken/short-signature.zip", try NordicBench.configuration())
        #expect(answer == [0x60, 0x04, 0x0A])
    }

    @Test func unsignedPackageIsExtended08() throws {
        let (_, answer) = try execute("app-unsigned-3.zip", try NordicBench.configuration())
        #expect(answer == [0x60, 0x04, 0x0B, 0x08])
    }

    @Test func initPacketThatIsNotProtobufIs05() throws {
        var bench = NordicBench(try NordicBench.configuration())
        let garbage: [UInt8] = Array(repeating: 0xFF, count: 32)
        #expect(try bench.sendInitPacket(garbage) == [0x60, 0x04, 0x05])
    }

    @Test func wrongHardwareVersionIsExtended06() throws {
        let (_, answer) = try execute("app-signed-3.zip", try NordicBench.configuration(hardware: 51))
        #expect(answer == [0x60, 0x04, 0x0B, 0x06])
    }

    @Test func missingSoftDeviceIsExtended07() throws {
        let (_, answer) = try execute("app-signed-3.zip", try NordicBench.configuration(softDevice: 0x0102))
        #expect(answer == [0x60, 0x04, 0x0B, 0x07])
    }

    @Test func downgradeIsExtended05AndTheSameVersionIsAccepted() throws {
        let (_, older) = try execute("app-signed-3.zip", try NordicBench.configuration(appVersion: 4))
        #expect(older == [0x60, 0x04, 0x0B, 0x05])
        let (_, same) = try execute("app-signed-3.zip", try NordicBench.configuration(appVersion: 3))
        #expect(same == [0x60, 0x04, 0x01])
    }

    @Test func bootloaderMustGoUpAndThenRecordsItsVersion() throws {
        var configuration = try NordicBench.configuration()
        configuration.bootloaderVersion = 2
        let (_, same) = try execute("bootloader-signed-2.zip", configuration)
        #expect(same == [0x60, 0x04, 0x0B, 0x05])
        configuration.bootloaderVersion = 1
        var (bench, answer) = try execute("bootloader-signed-2.zip", configuration)
        #expect(answer == [0x60, 0x04, 0x01])
        let image = try NordicSamples.image("bootloader-signed-2.zip")
        #expect(try bench.sendFirmware(image.firmware) == [0x60, 0x04, 0x01])
        #expect(bench.resetCause == .updated(.bootloader, version: 2))
        #expect(bench.bootloader.storedSettings.bootloaderVersion == 2)
        #expect(bench.bootloader.storedSettings.appVersion == 1)
    }

    @Test func hashMismatchAtTheEndIsExtended0CAndResetsIntoTheOldApplication() throws {
        let image = try NordicSamples.image("broken/flipped-firmware-byte.zip")
        var (bench, answer) = try execute("broken/flipped-firmware-byte.zip", try NordicBench.configuration())
        #expect(answer == [0x60, 0x04, 0x01])
        #expect(try bench.sendFirmware(image.firmware) == [0x60, 0x04, 0x0B, 0x0C])
        #expect(bench.resetCause == .validationFailed(.extended(.verificationFailed)))
        #expect(bench.bootloader.storedSettings.appVersion == 1)
        // The init command is gone: the next bootloader start needs the whole transfer again.
        #expect(!bench.bootloader.storedSettings.initCommandValid)
        #expect(bench.bootloader.storedSettings.progress == NordicDFUProgress())
    }
}
