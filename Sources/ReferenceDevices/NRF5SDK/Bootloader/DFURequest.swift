/// One request to the bootloader's request handler (nrf_dfu_req_handler.h `nrf_dfu_request_t`), as
/// the BLE transport builds it: Control Point writes carry an op code and, for Select, Create and
/// Set PRN, parameters; Packet writes become Write requests carrying the bytes.
struct DFURequest: Sendable, Hashable {
    var opCode: UInt8
    var objectType: UInt8 = 0
    var objectSize: UInt32 = 0
    var data: [UInt8] = []

    static func write(_ data: [UInt8]) -> DFURequest { DFURequest(opCode: DFUOpCode.write, data: data) }
}

/// What handling one request did, for the device to carry out: the answer (nil for none), and the
/// bootloader events the SDK's observer reacts to.
struct DFUOutcome: Sendable, Hashable {
    var response: DFUResponse?
    /// `NRF_DFU_EVT_DFU_STARTED` / `NRF_DFU_EVT_OBJECT_RECEIVED`: restart the inactivity timer.
    var restartsInactivityTimer = false
    /// `NRF_DFU_EVT_DFU_COMPLETED` / `NRF_DFU_EVT_DFU_ABORTED`: reset once the answer is out.
    var resets = false
    /// An object was executed successfully.
    var executed: SDKObjectType?
    /// Packet bytes taken into an object.
    var acceptedBytes = 0

    init(_ response: DFUResponse?) { self.response = response }
}
