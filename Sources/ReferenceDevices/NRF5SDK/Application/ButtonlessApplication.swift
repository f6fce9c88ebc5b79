/// The application's buttonless DFU characteristic without bonds (ble_dfu.c, ble_dfu_unbonded.c):
/// `01` enters the bootloader, `02 <len> <name>` stores the bootloader's name. Answers are
/// indications `20 <op> <status>`.
struct ButtonlessApplication: Sendable, Hashable {
    /// `ble_dfu_buttonless_rsp_code_t`.
    enum Status: UInt8 {
        case success = 0x01
        case opCodeNotSupported = 0x02
        case operationFailed = 0x04
        case invalidName = 0x05
    }

    /// What the device does after the write.
    enum Outcome: Sendable, Hashable {
        /// Indicate `20 <op> <status>`.
        case answer([UInt8])
        /// Indicate `20 01 01`, then (once it is confirmed) reset into the bootloader with the DFU
        /// flag in GPREGRET (`ble_dfu_buttonless_bootloader_start_finalize`).
        case answerAndEnterBootloader([UInt8])
        /// Store `name` for the bootloader, then indicate `20 02 01`.
        case storeName(String, answer: [UInt8])
        /// The application faults and the device resets (set-name without the SVCI).
        case fault
    }

    let support: ButtonlessSupport
    /// The set-name SVCI's state in the application (`nrf_dfu_set_adv_name_on_call`): once a write
    /// finished, later calls fail until the application restarts.
    var nameWritten = false

    /// `NRF_DFU_ADV_NAME_MAX_LENGTH`.
    static let maximumNameLength = 20
    static let responseCode: UInt8 = 0x20

    /// `ble_dfu_buttonless_on_ctrl_pt_write`, after the CCCD check. `nameStored` is whether the
    /// settings page already holds a name (the SVCI refuses to write it twice).
    mutating func handle(_ value: [UInt8], nameStored: Bool) -> Outcome {
        // Decided: an empty write is taken as op code 0 (the SDK reads a stale byte).
        let op = value.first ?? 0
        func answer(_ status: Status) -> [UInt8] { [Self.responseCode, op, status.rawValue] }
        switch op {
        case 0x01:
            return .answerAndEnterBootloader(answer(.success))
        case 0x02 where support != .setNameNotSupported:
            let length = value.count > 1 ? Int(value[1]) : 0
            guard length != 0, length <= Self.maximumNameLength else { return .answer(answer(.invalidName)) }
            if support == .asyncSVCIMissing { return .fault }
            guard !nameWritten, !nameStored else { return .answer(answer(.operationFailed)) }
            // Decided: name bytes the write does not hold are taken as 0.
            var name = Array(value.dropFirst(2).prefix(length))
            name += [UInt8](repeating: 0, count: length - name.count)
            nameWritten = true
            return .storeName(String(decoding: name, as: UTF8.self), answer: answer(.success))
        default:
            return .answer(answer(.opCodeNotSupported))
        }
    }
}
