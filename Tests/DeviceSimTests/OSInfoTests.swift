import DFUCore
import DeviceSim
import Testing

/// The device's OS info (os_mgmt_info in Zephyr os_mgmt.c): the letters' texts in Zephyr's order,
/// the board its build names, and an unknown letter refused as the OS group's INVALID_FORMAT.
@Suite struct OSInfoTests {
    @Test func theBoardOfATwoImageDeviceIsAnNRF5340() throws {
        var h = try DeviceHarness.make(images: 2)
        #expect(try h.call(OSInfoRequest(format: "i")).get().output == "nrf5340dk")
    }

    @Test func aOneImageDeviceIsAnNRF52840() throws {
        var h = try DeviceHarness.make()
        #expect(try h.call(OSInfoRequest(format: "i")).get().output == "nrf52840dk")
    }

    @Test func lettersComeInZephyrsOrderWhateverTheRequestsOrder() throws {
        var h = try DeviceHarness.make(images: 2)
        #expect(try h.call(OSInfoRequest(format: "is")).get().output == "Zephyr nrf5340dk")
        #expect(try h.call(OSInfoRequest()).get().output == "Zephyr", "no format: the kernel name")
    }

    @Test func anUnknownLetterIsInvalidFormat() throws {
        var h = try DeviceHarness.make()
        #expect(try h.call(OSInfoRequest(format: "iq")) == .failure(.groupError(group: .os, rc: 2, reason: nil)))
    }
}
