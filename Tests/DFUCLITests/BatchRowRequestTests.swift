@testable import dfu
import BlueZTransport
import DFUCore
import Testing

/// A plan row made into its update request: cells win over the batch's options, each cell is
/// checked as what it is, and a problem names the row's line and the column, in the plan's words.
@Suite struct BatchRowRequestTests {
    static let defaults = BatchDefaults(key: "/keys/batch.pem", mode: .confirmOnly, minBattery: 50, allowDowngrade: true,
                                        allowUnsigned: true, allowHostBattery: true, pair: false, dryRun: true,
                                        timeouts: .init(connect: 4))

    static func row(_ device: String = "C2:11:40:55:7A:01", key: String? = nil, expectVersion: String? = nil,
                    mode: String? = nil, minBattery: String? = nil, passkey: String? = nil) -> BatchRow {
        BatchRow(line: 3, device: device, image: "/plans/app.bin", key: key, expectVersion: expectVersion, mode: mode,
                 minBattery: minBattery, passkey: passkey)
    }

    @Test func emptyCellsTakeTheBatchsOptions() throws {
        let (request, passkey) = try Self.row("c2:11:40:55:7a:01").request(defaults: Self.defaults, adapter: "hci1")
        var expected = FlashRequest(imagePath: "/plans/app.bin", device: "C2:11:40:55:7A:01")
        expected.adapter = "hci1"
        expected.keyPath = "/keys/batch.pem"
        expected.mode = .confirmOnly
        expected.minimumBattery = 50
        expected.allowDowngrade = true
        expected.allowUnsigned = true
        expected.allowHostOnBattery = true
        expected.dryRun = true
        expected.timeouts = .init(connect: 4)
        #expect(request == expected, "the device in its canonical form")
        #expect(passkey == nil)
    }

    @Test func cellsWin() throws {
        let row = Self.row(key: "/keys/row.pem", expectVersion: "1.1.0", mode: "Test-Only", minBattery: "20", passkey: "012345")
        let (request, passkey) = try row.request(defaults: Self.defaults, adapter: nil)
        #expect(request.keyPath == "/keys/row.pem" && request.expectVersion == "1.1.0" && request.mode == .testOnly)
        #expect(request.minimumBattery == 20 && passkey == Passkey(text: "012345") && request.adapter == nil)
    }

    @Test(arguments: [
        (row(mode: "sideways"), "line 3, column mode: 'sideways' is not a mode; give one of test-confirm, confirm-only, "
            + "test-only or upload-only"),
        (row(minBattery: "abc"), "line 3, column min_battery: 'abc' is not a percentage from 0 to 100"),
        (row(minBattery: "140"), "line 3, column min_battery: '140' is not a percentage from 0 to 100"),
        (row(passkey: "12ab56"), "line 3, column passkey: must be six digits, 000000 to 999999"),
        (row("bogus:x"), "line 3, column device: invalid device 'bogus:x': unknown kind 'bogus'; expected "
            + DeviceSpec.forms),
        (row(expectVersion: "1.1.0", mode: "upload-only"), "line 3, column expect_version: cannot be checked with mode "
            + "upload-only: the device does not start the new image, so it never reports its version. Leave one of them out."),
        (row("sim:id=b", passkey: "123456"), "line 3, column passkey: is for Bluetooth devices; it does not apply to "
            + "device 'sim:id=b'"),
    ])
    func aCellThatCannotBeUsedIsNamedByItsColumn(_ row: BatchRow, _ message: String) {
        #expect {
            _ = try row.request(defaults: Self.defaults, adapter: nil)
        } throws: { error in
            (error as? BatchRowProblem)?.description == message
        }
    }

    /// The batch's --adapter and --pair are for Bluetooth devices (as `dfu flash` has them).
    @Test func anAdapterOrPairingForAVirtualDeviceIsNamed() {
        var pairing = Self.defaults
        pairing.pair = true
        for (defaults, adapter, flag) in [(Self.defaults, "hci0", "--adapter"), (pairing, nil, "--pair")] {
            #expect {
                _ = try Self.row("sim:id=c").request(defaults: defaults, adapter: adapter)
            } throws: { error in
                (error as? BatchRowProblem)?.description
                    == "line 3, column device: 'sim:id=c' is not a Bluetooth device; \(flag) applies only to those"
            }
        }
    }
}
