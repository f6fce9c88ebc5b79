import DeviceSim
import Transport

/// The fleet part: several virtual devices updated at once through one modelled central adapter
/// (`MemoryAdapter`), whose one radio their connections share.
///
/// 2M PHY, MTU 498 and LL 251 as the main profile (2M-mtu498-7.5ms); the interval is 8 × 7.5 ms =
/// 60 ms, so each of the 8 connections gets a 7.5 ms window per interval, which is the main
/// profile's whole event (5 exchanges). At 7.5 ms each of 8 windows would be 0.94 ms, less than
/// one 251-byte exchange at 2M (1.39 ms): a controller holding 8 links must space them out so.
struct FleetProfile: Sendable {
    let name: String
    let devices: Int
    let bench: BenchProfile

    /// Aggregate goodput must reach this share of the adapter's capacity.
    static let target = 0.80

    static func standard() throws(LinkProfileError) -> FleetProfile {
        let link = try LinkProfile(phy: .le2M, connectionInterval: .milliseconds(60), llPayload: 251, attMTU: 498)
        return FleetProfile(name: "fleet-8x-2M-mtu498-60ms", devices: 8,
                            bench: BenchProfile(name: "fleet-8x-2M-mtu498-60ms",
                                                summary: "8 devices on one adapter: LE 2M, MTU 498, 60 ms (a 7.5 ms window each); nRF52840 flash",
                                                link: link, flash: .nRF52840))
    }
}
