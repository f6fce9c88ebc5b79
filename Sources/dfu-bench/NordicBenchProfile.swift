import DeviceSim
import Transport

/// One Nordic Secure DFU transfer set-up: an SMP profile's radio, as the bootloader gets it (its
/// MTU capped at 247, `SimOptions.nordicBootloaderMaxMTU`), and the PRN value the client asks for.
struct NordicBenchProfile: Sendable {
    let name: String
    let summary: String
    /// The bootloader's link: the SMP profile's radio with the MTU capped.
    let link: LinkProfile
    let packetReceiptNotification: UInt16

    var linkText: String {
        let phy = link.phy == .le1M ? "1M" : "2M"
        return "\(phy) MTU \(link.attMTU) LL \(link.llPayload) \(DurationValue.millisecondsText(link.connectionInterval)) ms"
    }

    /// PRN 0 and 12 (issue 9's two targets) on the two links issue 3 sets the SMP target on, and
    /// PRN 0 without Data Length Extension: the regime where the Control Point round trips weigh least.
    static func catalogue(_ smp: [BenchProfile]) throws(LinkProfileError) -> [NordicBenchProfile] {
        var profiles: [NordicBenchProfile] = []
        for base in smp where base.name == "2M-mtu498-7.5ms" || base.name == "1M-mtu247-30ms" || base.name == "1M-mtu23-30ms" {
            let link = try bootloaderLink(base.link)
            let prns: [UInt16] = base.name == "1M-mtu23-30ms" ? [0] : [0, 12]
            for prn in prns {
                let name = "nordic-" + base.name.replacingOccurrences(of: "mtu498", with: "mtu247") + "-prn\(prn)"
                profiles.append(NordicBenchProfile(
                    name: name,
                    summary: "Nordic Secure DFU on \(base.name)'s radio (bootloader MTU \(link.attMTU)), PRN \(prn == 0 ? "off" : String(prn))",
                    link: link, packetReceiptNotification: prn))
            }
        }
        return profiles
    }

    /// The same radio with the ATT MTU the SDK's bootloader allows at most.
    static func bootloaderLink(_ link: LinkProfile) throws(LinkProfileError) -> LinkProfile {
        try LinkProfile(phy: link.phy, connectionInterval: link.connectionInterval, llPayload: link.llPayload,
                        attMTU: min(link.attMTU, SimOptions.nordicBootloaderMaxMTU),
                        maxPacketsPerEvent: link.maxPacketsPerEvent, eventLength: link.eventLength,
                        txBufferCount: link.txBufferCount, peripheralTXBufferCount: link.peripheralTXBufferCount,
                        notificationLatency: link.notificationLatency, writeCap: link.writeCap, encrypted: link.encrypted)
    }
}
