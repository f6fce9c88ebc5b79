/// The `InitCommand` of an init packet (dfu-cc.proto): what the bootloader checks before it accepts the
/// firmware. Absent optional fields are nil; nrfutil writes zero and false values out explicitly.
public struct NordicInitCommand: Sendable, Equatable {
    public struct BootValidation: Sendable, Equatable {
        /// `ValidationType`: 0 none, 1 CRC, 2 SHA-256, 3 ECDSA P-256 signature.
        public var type: UInt64
        public var byteCount: Int
    }

    public var fwVersion: UInt32?
    public var hwVersion: UInt32?
    public var sdReq: [UInt32] = []
    public var type: NordicFirmwareType?
    public var sdSize: UInt32?
    public var blSize: UInt32?
    public var appSize: UInt32?
    public var hashType: NordicHashType?
    /// The hash as stored: for SHA-256, the digest byte-reversed (nrf_crypto's little-endian digest).
    public var storedHash: [UInt8]?
    public var isDebug: Bool = false
    public var bootValidation: [BootValidation] = []

    /// `storedHash` in the usual order (as `sha256sum` prints it), for SHA-256.
    public var sha256: [UInt8]? {
        guard hashType == .sha256, let storedHash else { return nil }
        return Array(storedHash.reversed())
    }
}
