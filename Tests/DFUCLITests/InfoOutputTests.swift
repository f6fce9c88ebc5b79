// In-process tests of the `dfu` executable target (see DeviceSpecTests.swift for the condition).
#if DFU_CLI_UNIT_TESTS
@testable import dfu
import DFUCore
import Testing

/// How `dfu info` words what a device reported, including what a real device may leave out (BlueZ
/// knows no PHY or interval; MCUmgr parameters, bootloader info and the Battery Service are
/// optional) and states the virtual device does not reach in one run (a pending image, two images).
@Suite struct InfoOutputTests {
    static let hashA = [UInt8](repeating: 0xAB, count: 32)
    static let hashB = [UInt8](repeating: 0x01, count: 32)

    static func info(slots: [ImageSlotState], facts: DeviceFacts = DeviceFacts()) -> DeviceInfo {
        DeviceInfo(connection: ConnectionSummary(device: "…:7A:01", attMTU: 517, maxWrite: 510, phy: nil,
                                                 connectionInterval: nil, window: 1, ceiling: nil),
                   updateProtocol: .smp, facts: facts, slots: slots)
    }

    @Test func aDeviceThatReportsLittleIsShownAsSuch() {
        let table = InfoOutput.table(Self.info(slots: [
            ImageSlotState(slot: 0, version: "2.0.0", hash: Self.hashA, confirmed: true, active: true),
            ImageSlotState(slot: 1, version: "2.1.0", hash: Self.hashB, pending: true),
        ]))
        #expect(table == """
            device             …:7A:01
            link               MTU 517, writes up to 510 bytes
            MCUmgr buffers     not reported (one request at a time)
            bootloader mode    not reported
            slot size          not reported
            battery            not reported (no Battery Service)
            firmware revision  not reported
            slot 0             2.0.0+0: running, confirmed
            slot 0 hash        \(String(repeating: "ab", count: 32))
            slot 1             2.1.0+0: pending: test at the next reset
            slot 1 hash        \(String(repeating: "01", count: 32))
            """)
    }

    @Test func slotStatesReadAsWhatTheNextResetDoes() {
        let table = InfoOutput.table(Self.info(slots: [
            ImageSlotState(slot: 0, version: "1.0.0", hash: Self.hashA, active: true),
            ImageSlotState(slot: 1, version: "1.1.0", hash: Self.hashB, bootable: false, pending: true, permanent: true),
        ]))
        #expect(table.contains("slot 0             1.0.0+0: running\n"))
        #expect(table.contains("slot 1             1.1.0+0: pending: permanent at the next reset, not bootable\n"))
        let uploaded = InfoOutput.table(Self.info(slots: [ImageSlotState(slot: 1, version: "1.1.0", hash: Self.hashB)]))
        #expect(uploaded.contains("slot 1             1.1.0+0: inactive"))
    }

    @Test func twoImagesAreNumbered() {
        let table = InfoOutput.table(Self.info(slots: [
            ImageSlotState(image: 0, slot: 0, version: "1.0.0", hash: Self.hashA, confirmed: true, active: true),
            ImageSlotState(image: 1, slot: 0, version: "3.0.0", hash: Self.hashB, confirmed: true, active: true),
        ]))
        #expect(table.contains("image 0 slot 0       1.0.0+0: running, confirmed"))
        #expect(table.contains("image 1 slot 0 hash  " + String(repeating: "01", count: 32)))
        #expect(table.contains("image 0 slot 1       empty\nimage 1 slot 0 "), "each image's empty slot after its own")
        #expect(table.hasSuffix("image 1 slot 1       empty"))
    }

    /// Zephyr's image list writes a build as a fourth number (`1.2.3.45`); dfu writes `1.2.3+45`
    /// everywhere. A text that is no version is shown as the device sent it.
    @Test func slotVersionsAreWrittenAsDfuWritesVersions() {
        let slots = [ImageSlotState(slot: 0, version: "1.2.3.45", hash: Self.hashA, confirmed: true, active: true),
                     ImageSlotState(slot: 1, version: "nightly", hash: Self.hashB)]
        let table = InfoOutput.table(Self.info(slots: slots))
        #expect(table.contains("slot 0             1.2.3+45: running, confirmed\n"), "\(table)")
        #expect(table.contains("slot 1             nightly: inactive\n"), "\(table)")
        let json = InfoOutput.json(device: "…:7A:01", .success(Self.info(slots: slots)), warnings: []).encoded
        #expect(json.contains(#""version":"1.2.3+45""#) && json.contains(#""version":"nightly""#), "\(json)")
    }

    @Test func textFromTheDeviceCannotReachTheTerminalRaw() {
        var facts = DeviceFacts()
        facts.firmwareRevision = "1.0\u{1b}]0;pwned\u{7}"
        let table = InfoOutput.table(Self.info(slots: [], facts: facts))
        #expect(!table.contains("\u{1b}"))
        #expect(table.contains("firmware revision  1.0\\u{1b}]0;pwned\\u{7}"))
    }

    @Test func jsonOfAFailureCarriesOnlyTheDeviceAndTheError() {
        let failure = InfoOutput.json(device: "…:7A:01", .failure(.deviceUnreachable("could not connect")), warnings: [])
        #expect(failure.encoded == #"{"event":"result","schema":2,"command":"info","device":"…:7A:01","ok":false,"exit_code":5,"#
            + #""error":"could not connect"}"#)
        let refused = InfoOutput.json(device: "x", .failure(.deviceRejected("refused")), warnings: [])
        #expect(refused.encoded.contains(#""exit_code":7"#))
    }

    @Test func jsonOfASuccessCarriesWarningsAndUnknownsAsNull() {
        let json = InfoOutput.json(device: "…:7A:01", .success(Self.info(slots: [
            ImageSlotState(slot: 0, version: "2.0.0", hash: Self.hashA, confirmed: true, active: true),
        ])), warnings: ["the device's battery level reads 200, not a percentage; battery not checked"]).encoded
        #expect(json.contains(#""mtu":517,"max_write":510,"phy":null,"interval_ms":null,"window":1,"security":null,"buf_size":null"#))
        #expect(json.contains(#""battery":null"#))
        #expect(json.contains(#""slots":[{"image":0,"slot":0,"version":"2.0.0+0","sha256":"abab"#))
        #expect(json.hasSuffix(#""warnings":["the device's battery level reads 200, not a percentage; battery not checked"],"#
            + #""error":null}"#))
    }
}
#endif
