/// One request to the bootloader's request handler (nrf_dfu_req_handler.h `nrf_dfu_request_t`), as
/// a transport builds it. Over BLE, Control Point writes carry an op code and, for Select, Create
/// and Set PRN, parameters; Packet writes become Write requests carrying the bytes. Over serial
/// (nrf_dfu_serial.c) Ping, MTU Get and Firmware Version carry parameters too.
struct DFURequest: Sendable, Hashable {
    var opCode: UInt8
    var objectType: UInt8 = 0
    var objectSize: UInt32 = 0
    var data: [UInt8] = []
    /// `ping.id`, echoed back.
    var pingID: UInt8 = 0
    /// `mtu.size`: the transport's own MTU, which the handler echoes back.
    var mtuSize: UInt16 = 0
    /// `firmware.image_number`.
    var imageNumber: UInt8 = 0

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
    /// A Write's handler called `callback.write`, which gives a serial transport its receive buffer
    /// back. The data handler forgets to on every refusal (`on_data_obj_write_request`), and an
    /// invalid object type reaches no handler at all.
    var releasesWriteBuffer = false

    init(_ response: DFUResponse?) { self.response = response }
}
