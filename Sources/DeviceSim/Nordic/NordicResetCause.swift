import DFUCore

/// Why the simulated bootloader resets the device, and so what runs next.
public enum NordicResetCause: Sendable, Equatable {
    /// The last object passed the final check: the new firmware is activated. For an application
    /// `version` is the init packet's fw_version, which the new app runs as.
    case updated(NordicFirmwareType, version: UInt32?)
    /// The final check failed (§10.5): the old application boots.
    case validationFailed(NordicDFUResult)
    /// Control Point Abort (0x0C).
    case aborted
    /// `NRF_BL_DFU_INACTIVITY_TIMEOUT_MS` passed without DFU activity.
    case inactivity
}

/// A Packet write the bootloader did not store, and why.
public enum NordicPacketDrop: Sendable, Hashable {
    /// No free BLE buffer (an injected `prn-drop`): not counted towards a PRN either.
    case bufferFull
    /// The flash path refuses a length that is not a multiple of 4 (§10.3); counted towards a PRN,
    /// which then reports offset 0 and CRC 0.
    case unalignedLength(Int)
}
