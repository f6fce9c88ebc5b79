/// The four special bytes of SLIP (RFC 1055), as the nRF5 SDK names them in
/// `components/libraries/slip/slip.c` (`SLIP_BYTE_*`) and pc-nrfutil in `dfu_transport_serial.py`
/// (`Slip`). Both write them in octal: 0300, 0333, 0334, 0335.
public enum SLIPByte {
    /// Ends a frame. The only byte that never appears inside an encoded frame.
    public static let end: UInt8 = 0xC0
    /// Starts a two-byte escape for a payload byte that is END or ESC.
    public static let escape: UInt8 = 0xDB
    /// After ESC: the payload byte was END.
    public static let escapedEnd: UInt8 = 0xDC
    /// After ESC: the payload byte was ESC.
    public static let escapedEscape: UInt8 = 0xDD
}
