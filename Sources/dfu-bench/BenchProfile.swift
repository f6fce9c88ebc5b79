import DeviceSim
import Transport

/// One radio link and device flash the benchmark runs the upload over. The link's radio model and the
/// flash's write rate are the two ceilings the measured goodput is held against.
struct BenchProfile: Sendable {
    let name: String
    /// One line for `--list` and the report: what the profile stands for.
    let summary: String
    let link: LinkProfile
    let flash: FlashTiming

    /// Short link description for the table: `2M MTU 498 LL 251 7.5 ms`.
    var linkText: String {
        let phy = link.phy == .le1M ? "1M" : "2M"
        return "\(phy) MTU \(link.attMTU) LL \(link.llPayload) \(DurationValue.millisecondsText(link.connectionInterval)) ms"
    }

    /// Every profile, in the order they run. The first two are the ones issue 3 sets the 95 % target
    /// on; the others show the two other regimes a user meets: a link without Data Length Extension,
    /// and a radio-bound transfer where only the window and the reply latency stand between the
    /// client and the radio's ceiling.
    static func catalogue() throws(LinkProfileError) -> [BenchProfile] {
        [
            BenchProfile(name: "2M-mtu498-7.5ms",
                         summary: "LE 2M, MTU 498 (2 PDUs per write), 7.5 ms; nRF52840 flash: flash-bound",
                         link: .fast2M, flash: .nRF52840),
            BenchProfile(name: "1M-mtu247-30ms",
                         summary: "LE 1M, MTU 247 (1 PDU per write), 30 ms, a desktop default; nRF52840 flash: radio and flash nearly equal",
                         link: .typical1M, flash: .nRF52840),
            BenchProfile(name: "1M-mtu23-30ms",
                         summary: "LE 1M without Data Length Extension (LL 27) or MTU exchange (MTU 23), 30 ms: radio-bound",
                         link: try LinkProfile(phy: .le1M, connectionInterval: .milliseconds(30), llPayload: 27, attMTU: 23),
                         flash: .nRF52840),
            BenchProfile(name: "2M-mtu498-7.5ms-fastflash",
                         summary: "as 2M-mtu498-7.5ms with flash 4x faster than nRF52840 (390 kB/s): radio-bound at 2M",
                         link: .fast2M,
                         flash: FlashTiming(pageEraseTime: FlashTiming.nRF52840.pageEraseTime,
                                            writeBytesPerSecond: 4 * FlashTiming.nRF52840.writeBytesPerSecond)),
        ]
    }
}
