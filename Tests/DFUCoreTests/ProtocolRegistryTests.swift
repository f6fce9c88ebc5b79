@testable import DFUCore
import Testing
import NordicTestSupport
import Transport

/// The protocol registry itself: every protocol listed once, each file kind taken by exactly one,
/// each advertised service looked for by `dfu scan` and named where `dfu info` looks.
@Suite struct ProtocolRegistryTests {
    /// One sample of each kind of update file, and a file that is none (the MCUboot parser's to refuse).
    static func samples() throws -> [(bytes: [UInt8], kind: UpdateFileKind)] {
        [
            (try Samples.image("blinky-ecdsa-p256-1.1.0.signed.bin"), .mcubootImage),
            (try Samples.bytes("ncs/app-1.1.0.zip"), .ncsPackage),
            (try Samples.bytes("nordic/app-signed-3.zip"), .nordicPackage),
            (TestZip(files: [("manifest.json", "{}")]).bytes, .nordicPackage),
            (Array("not an update file".utf8), .mcubootImage),
            ([], .mcubootImage),
        ]
    }

    @Test func namesAreUniqueAndEachNamesItsEntry() {
        let names = ProtocolRegistry.all.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(UpdateProtocolName.allCases == names)
        for name in names {
            #expect(UpdateProtocolName(rawValue: name.rawValue) == name)
            #expect(ProtocolRegistry.entry(named: name)?.name == name)
        }
        #expect(UpdateProtocolName(rawValue: "serial") == nil)
        #expect(Set(ProtocolRegistry.all.map(\.scanJSONName)).count == names.count)
        #expect(Set(ProtocolRegistry.all.map(\.scanColumn)).count == names.count)
    }

    @Test func eachFileKindBelongsToExactlyOneEntry() {
        let kinds = ProtocolRegistry.all.flatMap(\.fileKinds)
        #expect(Set(kinds).count == kinds.count)
        #expect(Set(kinds) == [.mcubootImage, .ncsPackage, .nordicPackage])
    }

    @Test func eachFileIsRecognisedByExactlyOneEntryAtTheWinningStrength() throws {
        for sample in try Self.samples() {
            let claims = ProtocolRegistry.all.compactMap { entry in entry.recognise(sample.bytes).map { (entry, $0) } }
            let strongest = claims.map(\.1.strength).max()
            let winners = claims.filter { $0.1.strength == strongest }
            #expect(winners.count == 1, "\(sample.kind): \(winners.map(\.0.name))")
            #expect(winners.first?.1.kind == sample.kind)
            #expect(winners.first.map { $0.0.fileKinds.contains(sample.kind) } == true)
            #expect(ProtocolRegistry.recognise(sample.bytes)?.kind == sample.kind)
            #expect(UpdateFileKind(of: sample.bytes) == sample.kind)
        }
    }

    @Test func fileKindsAreTheProtocolsOwn() throws {
        #expect(ProtocolRegistry.recognise(try Samples.bytes("ncs/app-1.1.0.zip"))?.entry.name == .smp)
        #expect(ProtocolRegistry.recognise(try Samples.bytes("nordic/app-signed-3.zip"))?.entry.name == .nordic)
        #expect(ProtocolRegistry.recognise(try Samples.image("blinky-ecdsa-p256-1.1.0.signed.bin"))?.entry.name == .smp)
    }

    @Test func everyAdvertisedServiceIsScannedForAndUpdatable() {
        let services = ProtocolRegistry.all.map(\.advertisedService)
        #expect(Set(services).count == services.count)
        #expect(ProtocolRegistry.advertisedServices == services)
        #expect(DFUServiceIDs.updatable == services)
        for entry in ProtocolRegistry.all {
            #expect(ProtocolRegistry.entry(advertising: [entry.advertisedService])?.name == entry.name)
        }
        #expect(DFUServiceIDs.updatable == [DFUServiceIDs.smp, DFUServiceIDs.nordicSecureDFU])
    }

    @Test func aDeviceAdvertisingSeveralIsReadWithTheFirstEntry() {
        let both = [DFUServiceIDs.nordicSecureDFU, DFUServiceIDs.smp]
        #expect(ProtocolRegistry.entry(advertising: both)?.name == .smp)
        #expect(ProtocolRegistry.entry(advertising: [ServiceID(short: 0x180F)]) == nil)
    }

    @Test func namesAndFilesComeFromTheEntries() {
        #expect(UpdateProtocolName.smp.description == "SMP (MCUmgr)")
        #expect(UpdateProtocolName.nordic.description == "Nordic Secure DFU")
        #expect(UpdateProtocolName.smp.files == "a signed MCUboot image or an nRF Connect SDK dfu_application.zip")
        #expect(UpdateProtocolName.nordic.files == "a Nordic DFU package (nrfutil pkg generate)")
    }

    @Test func theAnyLayoutHintNamesEveryProtocolInOrder() {
        #expect(AnyUpdateLayout.all.missingHint == "Check that the device runs firmware with MCUmgr (SMP), or an nRF5 SDK "
                + "secure bootloader or buttonless DFU application.")
        #expect(AnyUpdateLayout.all.layouts.count == ProtocolRegistry.all.count)
    }
}
