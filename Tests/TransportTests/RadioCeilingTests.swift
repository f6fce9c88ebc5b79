import Testing
import Transport

/// The write-command ceiling against the reference figures (peers.md §2: the Bluetooth SIG method
/// [T1] as worked through by Goodix [T2]) and the two benchmark profiles of issue 3.
@Suite struct RadioCeilingTests {
    /// An interval long enough that whole-event rounding costs < 0.1 %, to compare per-slot rates.
    static let unlimited = Duration.seconds(4)

    @Test func matchesSIGFigureAtOneMegabitWithMIC() throws {
        // The SIG's 1M figure counts a 4-byte MIC: 265 bytes = 2120 µs, slot 2500 µs, 244 B per slot.
        let profile = try LinkProfile(phy: .le1M, connectionInterval: Self.unlimited, attMTU: 247, encrypted: true)
        let ceiling = profile.writeCommandCeiling(valueSize: 244)
        #expect(abs(ceiling - 244.0 / 2500e-6) / (244.0 / 2500e-6) < 0.001)  // 97.6 kB/s = 780.8 kbit/s
    }

    @Test func matchesSIGFigureAtTwoMegabitWithoutMIC() throws {
        // The SIG's 2M figure, 1392 µs per slot, is the MIC-less one: (2+4+2+251+3) × 4 µs + 150 + 44 + 150.
        let profile = try LinkProfile(phy: .le2M, connectionInterval: Self.unlimited, attMTU: 247)
        let ceiling = profile.writeCommandCeiling(valueSize: 244)
        #expect(abs(ceiling - 244.0 / 1392e-6) / (244.0 / 1392e-6) < 0.001)  // 175.3 kB/s = 1.40 Mbit/s
    }

    @Test func unencryptedOneMegabitIsAboutOnePercentAboveSIGFigure() throws {
        // Without the MIC the slot is 2468 µs: 98.9 kB/s, 1.3 % above the reference's 97.6 kB/s.
        let profile = try LinkProfile(phy: .le1M, connectionInterval: Self.unlimited, attMTU: 247)
        let ceiling = profile.writeCommandCeiling(valueSize: 244)
        #expect(abs(ceiling - 244.0 / 2468e-6) < 50)
        #expect((0.012...0.015).contains(ceiling / 97_600 - 1))
    }

    @Test func fastProfileCarriesTwoAndAHalfWritesPerEvent() {
        // 2M, MTU 498, 7.5 ms: 5 slots of 1392 µs per event; a 495-byte write is 2 PDUs.
        #expect(LinkProfile.fast2M.maxWriteWithoutResponse == 495)
        #expect(abs(LinkProfile.fast2M.writeCommandCeiling - 165_000) < 1)
    }

    @Test func typicalProfileCarriesTwelveWritesPerEvent() {
        // 1M, MTU 247, 30 ms: 12 slots of 2468 µs (29.6 ms) per event, one 244-byte write each.
        #expect(LinkProfile.typical1M.maxWriteWithoutResponse == 244)
        #expect(abs(LinkProfile.typical1M.writeCommandCeiling - 97_600) < 1)
    }

    @Test func perEventCapLimitsCeiling() throws {
        let profile = try LinkProfile(phy: .le2M, connectionInterval: .microseconds(7_500), attMTU: 247, maxPacketsPerEvent: 2)
        #expect(abs(profile.writeCommandCeiling - 2 * 244 / 0.0075) < 1)
    }

    @Test func shortEventLengthLimitsCeiling() throws {
        // 3 ms of a 7.5 ms interval holds 2 slots of 1392 µs.
        let profile = try LinkProfile(phy: .le2M, connectionInterval: .microseconds(7_500), attMTU: 247,
                                      eventLength: .milliseconds(3))
        #expect(abs(profile.writeCommandCeiling - 2 * 244 / 0.0075) < 1)
    }

    @Test func withoutDataLengthExtensionEachWriteIsOneSmallPDU() throws {
        // LL 27, MTU 23: a 20-byte write is 27 bytes = 1 PDU, slot 296+150+80+150 = 676 µs; 11 per 7.5 ms.
        let profile = try LinkProfile(phy: .le1M, connectionInterval: .microseconds(7_500), llPayload: 27, attMTU: 23)
        #expect(abs(profile.writeCommandCeiling - 11 * 20 / 0.0075) < 1)
    }

    @Test func writeCapLimitsPayloadBelowMTU() throws {
        let profile = try LinkProfile(attMTU: 517, writeCap: 510)
        #expect(profile.maxWriteWithoutResponse == 510)
        #expect(LinkProfile.fast2M.writeCommandCeiling(valueSize: 0) == 0)
    }

    @Test func presetsAreLegalProfiles() throws {
        #expect(try LinkProfile(phy: .le2M, connectionInterval: .microseconds(7_500), attMTU: 498) == .fast2M)
        #expect(try LinkProfile(phy: .le1M, connectionInterval: .milliseconds(30), attMTU: 247) == .typical1M)
    }

    @Test func rejectsValuesOutsideBluetoothLimits() {
        #expect(throws: LinkProfileError.self) { try LinkProfile(connectionInterval: .milliseconds(7)) }
        #expect(throws: LinkProfileError.self) { try LinkProfile(connectionInterval: .milliseconds(5)) }
        #expect(throws: LinkProfileError.self) { try LinkProfile(connectionInterval: .seconds(5)) }
        #expect(throws: LinkProfileError.self) { try LinkProfile(llPayload: 252) }
        #expect(throws: LinkProfileError.self) { try LinkProfile(attMTU: 22) }
        #expect(throws: LinkProfileError.self) { try LinkProfile(maxPacketsPerEvent: 0) }
        #expect(throws: LinkProfileError.self) { try LinkProfile(eventLength: .milliseconds(8)) }
        #expect(throws: LinkProfileError.self) { try LinkProfile(txBufferCount: 0) }
        #expect((try? LinkProfile(connectionInterval: .milliseconds(10))) != nil)
    }

    @Test func profileErrorNamesFieldAndAllowedRange() {
        do {
            _ = try LinkProfile(attMTU: 600)
            Issue.record("MTU 600 was accepted")
        } catch {
            #expect(error.description == "link profile: mtu = 600 is not allowed; use 23 to 517 bytes.")
        }
    }
}
