import DFUCore
import Transport

/// An nRF5 SDK application with buttonless DFU, without bonds (`ble_dfu_unbonded.c`) or with
/// (`ble_dfu_bonded.c`), Battery Service and a Device Information firmware revision, as a
/// sans-I/O value.
///
/// - `.refuseWrite(error)`: the Write Request fails with this ATT error.
/// - `.indicate(bytes)`: `20 <op> <status>` on the buttonless characteristic.
/// - `.enterBootloader`: after the indication before it went out, reset into DFU mode.
public struct NordicApplication: Sendable {
    public enum Event: Sendable, Hashable {
        case connected
        case subscribed(CharacteristicID)
        case write(CharacteristicID, [UInt8])
        case disconnected
    }

    public enum Action: Sendable, Hashable {
        case refuseWrite(ATTError)
        case indicate([UInt8])
        case enterBootloader
        /// A `02` set-name request succeeded: the bootloader will advertise `name`.
        case setBootloaderName(String)
        /// Reset into the application, answering nothing (set-name without the async SVCI).
        case restart
    }

    /// `DFU_RSP_*` of the buttonless service.
    enum Status: UInt8 {
        case success = 0x01, opCodeNotSupported = 0x02, operationFailed = 0x04, invalidAdvertisedName = 0x05
        case notBonded = 0x07
    }

    static let responseCode: UInt8 = 0x20
    /// `NRF_DFU_ADV_NAME_MAX_LENGTH`.
    public static let maximumNameLength = 20

    /// `app_version` as the bootloader settings hold it.
    public let version: UInt32
    public var batteryLevel: UInt8
    public let buttonlessVariant: NordicButtonlessVariant
    public let setName: NordicSetNameSupport
    private var indicationsEnabled = false

    public init(version: UInt32, batteryLevel: UInt8, buttonless: NordicButtonlessVariant = .withoutBonds,
                setName: NordicSetNameSupport = .supported) {
        self.version = version
        self.batteryLevel = min(batteryLevel, 100)
        buttonlessVariant = buttonless
        self.setName = setName
    }

    public var firmwareRevision: String { NordicAppVersion.text(version) }

    public func read(_ characteristic: CharacteristicID) -> [UInt8]? {
        switch characteristic {
        case NordicDeviceGATT.batteryLevel: return [batteryLevel]
        case NordicDeviceGATT.firmwareRevision: return Array(firmwareRevision.utf8)
        default: return nil
        }
    }

    public mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .connected, .disconnected:
            // No bonds: the CCCD starts disabled on every connection.
            indicationsEnabled = false
            return []
        case .subscribed(let characteristic):
            if characteristic == buttonlessVariant.characteristic { indicationsEnabled = true }
            return []
        case .write(let characteristic, let bytes):
            guard characteristic == buttonlessVariant.characteristic else { return [.refuseWrite(.writeNotPermitted)] }
            guard indicationsEnabled else { return [.refuseWrite(NordicBootloader.cccdImproperlyConfigured)] }
            return buttonless(bytes)
        }
    }

    private func buttonless(_ bytes: [UInt8]) -> [Action] {
        // An empty write has no opcode; sources are silent (the SDK reads a stale byte): not supported.
        guard let op = bytes.first else { return [respond(0x00, .opCodeNotSupported)] }
        if case .withBonds(let centralBonded) = buttonlessVariant {
            // ble_dfu_bonded.c: enter only, and only for a bonded peer; no set-name.
            guard op == 0x01 else { return [respond(op, .opCodeNotSupported)] }
            return centralBonded ? [respond(op, .success), .enterBootloader] : [respond(op, .notBonded)]
        }
        switch op {
        case 0x01:
            return [respond(op, .success), .enterBootloader]
        case 0x02 where setName == .unsupported:
            return [respond(op, .opCodeNotSupported)]
        case 0x02 where setName == .resets:
            return [.restart]
        case 0x02:
            let declared = bytes.count > 1 ? Int(bytes[1]) : 0
            // A length beyond the bytes written is refused too: the SDK would copy past the write.
            guard (1 ... Self.maximumNameLength).contains(declared), bytes.count >= 2 + declared else {
                return [respond(op, .invalidAdvertisedName)]
            }
            let name = String(decoding: bytes[2 ..< 2 + declared], as: UTF8.self)
            return [.setBootloaderName(name), respond(op, .success)]
        default:
            return [respond(op, .opCodeNotSupported)]
        }
    }

    private func respond(_ op: UInt8, _ status: Status) -> Action {
        .indicate([Self.responseCode, op, status.rawValue])
    }
}
