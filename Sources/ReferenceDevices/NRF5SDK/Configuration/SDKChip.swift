/// The chip's factory information (FICR), as the Hardware Version request reads it
/// (nrf_dfu_req_handler.c `on_hw_version_request`: `INFO.PART`, `INFO.VARIANT`, `INFO.FLASH` and
/// `INFO.RAM` in KiB, reported in bytes, and `CODEPAGESIZE`). The values are the chips', not the
/// SDK's.
public struct SDKChip: Sendable, Hashable {
    /// `FICR.INFO.PART`, e.g. 0x52832.
    public var part: UInt32
    /// `FICR.INFO.VARIANT`: four ASCII characters, e.g. "AAE0" = 0x41414530.
    public var variant: UInt32
    /// `FICR.INFO.FLASH`, KiB.
    public var flashKiB: UInt32
    /// `FICR.INFO.RAM`, KiB.
    public var ramKiB: UInt32
    /// `FICR.CODEPAGESIZE`, bytes.
    public var codePageSize: UInt32

    public init(part: UInt32, variant: UInt32, flashKiB: UInt32, ramKiB: UInt32, codePageSize: UInt32 = 4096) {
        self.part = part
        self.variant = variant
        self.flashKiB = flashKiB
        self.ramKiB = ramKiB
        self.codePageSize = codePageSize
    }

    /// nRF52832-QFAA, build code E0: 512 KiB flash, 64 KiB RAM.
    public static let nRF52832 = SDKChip(part: 0x52832, variant: 0x4141_4530, flashKiB: 512, ramKiB: 64)
    /// nRF52840-QIAA, build code D0: 1 MiB flash, 256 KiB RAM.
    public static let nRF52840 = SDKChip(part: 0x52840, variant: 0x4141_4430, flashKiB: 1024, ramKiB: 256)
}
