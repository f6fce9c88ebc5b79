/// A Packet write the bootloader did not store, and why.
public enum NordicPacketDrop: Sendable, Hashable {
    /// No free BLE buffer (an injected `prn-drop`): not counted towards a PRN either.
    case bufferFull
    /// The flash path refuses a length that is not a multiple of 4 (§10.3); counted towards a PRN,
    /// which then reports offset 0 and CRC 0.
    case unalignedLength(Int)
}
