extension MCUmgrSerial.ZephyrSMPServer {
    typealias CBORPair = MCUmgrSerial.CBORPair
    typealias HandlerOutcome = MCUmgrSerial.HandlerOutcome

    /// os_mgmt.c `os_mgmt_echo`: "d" must be a text string if present; a missing "d" echoes "".
    func echo(_ payload: ArraySlice<UInt8>) -> HandlerOutcome {
        guard let values = MCUmgrSerial.zcborMapDecodeBulk(payload, ["d": .text]) else { return .failure(.invalid) }
        return .ok([CBORPair("r", .text(values["d"]?.text ?? []))])
    }

    /// os_mgmt.c `os_mgmt_reset`: answers an empty map and reboots `CONFIG_MCUMGR_GRP_OS_RESET_MS`
    /// later from the system work queue. With `CONFIG_MCUMGR_GRP_OS_RESET_BOOT_MODE` a
    /// "boot_mode" above 255 is refused (MGMT_ERR_EINVAL) and any other value is stored with
    /// `bootmode_set`; a payload that fails to decode is ignored ("core command").
    mutating func reset(_ payload: ArraySlice<UInt8>, flash: inout MCUmgrSerial.DeviceFlash) -> HandlerOutcome {
        if configuration.osResetBootMode {
            let decoded = MCUmgrSerial.zcborMapDecodeBulkPartial(payload, ["boot_mode": .uint32])
            if let mode = decoded.values["boot_mode"]?.uint32 {
                guard mode <= UInt32(UInt8.max) else { return .failure(.invalid) }
                flash.retainedBootMode = UInt8(mode)
            }
        }
        requestedReset = configuration.osResetDelay
        return .ok()
    }
}
