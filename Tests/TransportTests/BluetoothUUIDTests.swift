import Testing
import Transport

@Suite struct BluetoothUUIDTests {
    @Test func expandsSixteenBitShortFormWithBluetoothBaseUUID() throws {
        let uuid = try #require(BluetoothUUID(string: "2A19"))
        #expect(uuid.description == "00002a19-0000-1000-8000-00805f9b34fb")
        #expect(uuid == BluetoothUUID(short: 0x2A19))
        #expect(uuid.short16 == 0x2A19)
        #expect(BluetoothUUID(string: "0x2a19") == uuid)
    }

    @Test func expandsThirtyTwoBitShortForm() throws {
        let uuid = try #require(BluetoothUUID(string: "0000180F"))
        #expect(uuid == BluetoothUUID(short: 0x180F))
        #expect(BluetoothUUID(string: "1234ABCD")?.description == "1234abcd-0000-1000-8000-00805f9b34fb")
        #expect(BluetoothUUID(string: "1234ABCD")?.short16 == nil)
    }

    @Test func parsesFullFormInEitherCaseAndFormatsLowercase() throws {
        let upper = try #require(BluetoothUUID(string: "8D53DC1D-1DB7-4CD3-868B-8A527460AA84"))
        let lower = try #require(BluetoothUUID(string: "8d53dc1d-1db7-4cd3-868b-8a527460aa84"))
        #expect(upper == lower)
        #expect(upper.description == "8d53dc1d-1db7-4cd3-868b-8a527460aa84")
        #expect(upper.short16 == nil)
        #expect(BluetoothUUID(string: upper.description) == upper)
    }

    @Test func roundTripsBytes() throws {
        let uuid = try #require(BluetoothUUID(string: "DA2E7828-FBCE-4E01-AE9E-261174997C48"))
        #expect(uuid.bytes.first == 0xDA && uuid.bytes.last == 0x48 && uuid.bytes.count == 16)
        #expect(BluetoothUUID(bytes: uuid.bytes) == uuid)
        #expect(BluetoothUUID(bytes: [1, 2, 3]) == nil)
    }

    @Test(arguments: ["", "2A1", "2A19F", "xyz!", "0x", "GGGG", "0x8D53DC1D-1DB7-4CD3-868B-8A527460AA84",
                      "8D53DC1D11DB7-4CD3-868B-8A527460AA84", "8D53DC1D-1DB7-4CD3-868B-8A527460AA8Z",
                      "8D53DC1D-1DB7-4CD3-868B-8A527460AA840"])
    func rejectsMalformedText(_ text: String) {
        #expect(BluetoothUUID(string: text) == nil)
    }

    @Test func keepsServiceAndCharacteristicIDsApartButEqualByValue() {
        #expect(CharacteristicID("2a19") == CharacteristicID(short: 0x2A19))
        #expect(ServiceID("180f") == ServiceID(short: 0x180F))
        #expect(CharacteristicID("nope") == nil)
    }

    @Test func redactsAddressesForLogs() {
        #expect(PeerIdentity("AA:BB:CC:DD:EE:FF").redacted == "…:EE:FF")
        #expect(PeerIdentity("sim").redacted == "sim")
        #expect(PeerIdentity("device-123456").redacted == "…3456")
    }
}
