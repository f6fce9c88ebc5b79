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
