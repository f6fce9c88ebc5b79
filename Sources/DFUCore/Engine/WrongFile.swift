/// The refusal of an update file meant for another protocol than the device speaks: one sentence,
/// whether the device said its protocol before connecting (`sim:`, `udp:`) or its services did.
enum WrongFile {
    /// `file` says what the file is ("app.bin is an update for SMP (MCUmgr)").
    static func message(file: String, device: String, speaks: UpdateProtocolName) -> String {
        "wrong file for this device: \(file), but \(device) speaks \(speaks); it takes \(speaks.files). Nothing was sent."
    }
}
