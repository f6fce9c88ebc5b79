/// How long the device's flash takes. This is what makes the first upload reply slow (Zephyr erases
/// the whole upload region before it answers) and what caps the upload rate when the radio is faster
/// than the flash. Defaults are the nRF52840 datasheet maxima: a 4 KiB page erases in 85 ms
/// (tERASEPAGE) and a 32-bit word programs in 41 µs (tWRITE), about 97.6 kB/s.
public struct FlashTiming: Sendable, Hashable {
    /// Time to erase one page.
    public var pageEraseTime: Duration
    /// Programming rate in bytes per second; `.infinity` makes writes free.
    public var writeBytesPerSecond: Double

    public init(pageEraseTime: Duration = .milliseconds(85), writeBytesPerSecond: Double = 4 / 41e-6) {
        self.pageEraseTime = pageEraseTime
        self.writeBytesPerSecond = writeBytesPerSecond
    }

    /// The nRF52840 figures above.
    public static let nRF52840 = FlashTiming()

    /// Flash that takes no time, for tests that are about protocol rules rather than timing.
    public static let instant = FlashTiming(pageEraseTime: .zero, writeBytesPerSecond: .infinity)

    public func eraseTime(pages: Int) -> Duration {
        pageEraseTime * max(0, pages)
    }

    public func writeTime(bytes: Int) -> Duration {
        guard bytes > 0, writeBytesPerSecond.isFinite, writeBytesPerSecond > 0 else { return .zero }
        return .seconds(Double(bytes) / writeBytesPerSecond)
    }
}
