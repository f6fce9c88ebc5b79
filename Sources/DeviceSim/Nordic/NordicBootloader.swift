import DFUCore
import Transport

/// The nRF5 SDK secure bootloader's BLE DFU (SDK 15–17), as one sans-I/O value: the BLE transport
/// (`nrf_dfu_ble.c`: CCCD check, PRN, buffer drops), the request handler's objects
/// (`nrf_dfu_req_handler.c`) and the validation (`nrf_dfu_validation.c`), written from those
/// sources and nordic-secure-dfu.md §3.1, §4.3, §6 and §10.
///
///     var actions = bootloader.handle(.subscribed, now: now)            // CCCD of the Control Point
///     actions = bootloader.handle(.controlPointWrite([0x06, 0x01]), now: now)
///     actions = bootloader.handle(.packetWrite(chunk), now: now)
///     if let wake = bootloader.nextDeadline { … handle(.tick, now: wake) }
///
/// - `.refuseWrite(error)`: answer the Control Point Write Request with this ATT error (nothing
///   else happens); without it the write is acknowledged.
/// - `.notify(bytes)`: a Control Point notification, `60 <op> <result> [payload]`.
/// - `.reset(cause)`: the device resets after the notifications before it have gone out; the
///   bootloader handles nothing more. `storedSettings` is what survives.
/// - `.dropped(drop)`: a Packet write that was not stored (diagnostics; the central never knows).
///
/// It reads no clock: time is the `now` of each call and only drives the inactivity timeout.
public struct NordicBootloader: Sendable {
    public enum Event: Sendable, Hashable {
        case connected
        /// The central enabled notifications on the Control Point.
        case subscribed
        /// A Write Request on the Control Point.
        case controlPointWrite([UInt8])
        /// A Write Command on the Packet characteristic.
        case packetWrite([UInt8])
        case disconnected
        case tick
    }

    public enum Action: Sendable, Equatable {
        case refuseWrite(ATTError)
        case notify([UInt8])
        case reset(NordicResetCause)
        case dropped(NordicPacketDrop)
        /// The bootloader closes the link after the notifications before it went out
        /// (`configuration.linkDrops`); it stays in DFU mode and advertises again.
        case dropLink(NordicLinkDrop)
    }

    /// Which object Write, CRC and Execute apply to: the type of the last Select or Create.
    enum CurrentObject: Sendable, Hashable {
        case command, data, invalid
    }

    /// `BLE_GATT_STATUS_ATTERR_CPS_CCCD_CONFIG_ERROR`.
    public static let cccdImproperlyConfigured = ATTError(code: 0xFD)
    static let responseCode: UInt8 = 0x60

    public let configuration: NordicBootloaderConfiguration
    let validator: NordicInitValidator
    /// The settings page: what a reset (and, on SDK 16/17, a link drop) goes back to.
    public internal(set) var storedSettings: NordicDFUSettings
    /// RAM progress of the transfer.
    public internal(set) var progress: NordicDFUProgress
    /// `m_valid_init_cmd_present`.
    public internal(set) var initCommandValid: Bool
    var accepted: NordicInitValidator.Accepted?
    /// `m_firmware_size_req`: the image size the last Execute(command) announced.
    var firmwareSizeRequired: Int
    var currentObject: CurrentObject = .command
    /// PRN value N and the writes left until the next receipt notification.
    public internal(set) var receiptInterval: UInt16 = 0
    var receiptCountdown: Int = 0
    var notificationsEnabled = false
    /// Packet writes seen, for `droppedPacketWrites`.
    public internal(set) var packetWriteCount = 0
    public internal(set) var inactivityDeadline: MonotonicInstant?
    /// Set once the bootloader asked for a reset; it then ignores everything.
    public internal(set) var resetCause: NordicResetCause?
    /// Data objects created and executed with success so far, for `configuration.linkDrops`.
    public internal(set) var dataCreates = 0
    public internal(set) var dataExecutes = 0

    /// Starts the bootloader in DFU mode from `settings` (as stored in flash) at `now`; `continuing`
    /// after it activated a SoftDevice, when it waits `continuationTimeout` for the application
    /// instead of the inactivity timeout (SDK `nrf_bootloader_init`, ACTIVATION_SUCCESS_EXPECT_ADDITIONAL_UPDATE).
    public init(configuration: NordicBootloaderConfiguration, settings: NordicDFUSettings, now: MonotonicInstant,
                continuing: Bool = false) {
        self.configuration = configuration
        validator = NordicInitValidator(configuration: configuration)
        storedSettings = settings
        progress = settings.progress
        initCommandValid = settings.initCommandValid
        accepted = settings.accepted
        firmwareSizeRequired = settings.accepted?.firmwareSize ?? 0
        // With the inactivity timer off (an unpaced link clock) the continuation timer is off too.
        let initialTimeout = continuing ? configuration.inactivityTimeout.flatMap { _ in configuration.continuationTimeout }
                                        : configuration.inactivityTimeout
        inactivityDeadline = initialTimeout.map { now.advanced(by: $0) }
    }

    /// The image bytes received so far (up to the current offset).
    public var receivedImage: ArraySlice<UInt8> { storedSettings.bank.prefix(progress.imageOffset) }

    public var nextDeadline: MonotonicInstant? { resetCause == nil ? inactivityDeadline : nil }

    public mutating func handle(_ event: Event, now: MonotonicInstant) -> [Action] {
        guard resetCause == nil else { return [] }
        if let deadline = inactivityDeadline, deadline <= now {
            // The application is always valid here, so leave DFU mode. (Not modelled: an update that
            // fits only with the application given up makes the SDK invalidate it at Execute(command),
            // `nrf_dfu_cache_prepare`; that device would stay in DFU mode.)
            return reset(.inactivity)
        }
        switch event {
        case .tick, .connected:
            return []
        case .subscribed:
            notificationsEnabled = true
            return []
        case .disconnected:
            linkEnded()
            return []
        case .controlPointWrite(let bytes):
            guard notificationsEnabled else { return [.refuseWrite(Self.cccdImproperlyConfigured)] }
            return droppingLinkIfDue(after: controlPoint(bytes, now: now), request: bytes.first)
        case .packetWrite(let bytes):
            return droppingLinkIfDue(after: packet(bytes, now: now), request: nil)
        }
    }

    /// `nrf_dfu_ble.c` on disconnection: notifications are off for the next central, and SDK
    /// 16/17 go back to the settings page.
    mutating func linkEnded() {
        notificationsEnabled = false
        if !configuration.sdk.keepsProgressOnLinkDrop { reloadStoredSettings() }
    }

    /// SDK 16/17 on transport deactivation: RAM progress goes back to the settings page.
    private mutating func reloadStoredSettings() {
        progress = storedSettings.progress
        initCommandValid = storedSettings.initCommandValid
        accepted = storedSettings.accepted
        firmwareSizeRequired = storedSettings.accepted?.firmwareSize ?? 0
    }

    /// `nrf_dfu_settings_write`: the RAM state becomes the stored one.
    mutating func writeSettings() {
        storedSettings.progress = progress
        storedSettings.initCommandValid = initCommandValid
        storedSettings.accepted = accepted
    }

    mutating func reset(_ cause: NordicResetCause) -> [Action] {
        resetCause = cause
        return [.reset(cause)]
    }

    mutating func restartInactivityTimer(_ now: MonotonicInstant) {
        inactivityDeadline = configuration.inactivityTimeout.map { now.advanced(by: $0) }
    }

    // MARK: Control Point

    private mutating func controlPoint(_ bytes: [UInt8], now: MonotonicInstant) -> [Action] {
        // An empty write has no opcode; the SDK would read a stale byte. Acknowledge and ignore it.
        guard let op = bytes.first else { return [] }
        let parameters = bytes.dropFirst()
        switch op {
        case 0x01:
            // Create resets the PRN countdown before it is handled, whatever its result.
            receiptCountdown = Int(receiptInterval)
            guard let type = parameters.first, let size = Self.uint32(parameters.dropFirst()) else {
                return [respond(op, .invalidParameter)]
            }
            return create(type: type, size: Int(size), now: now)
        case 0x02:
            guard let interval = Self.uint16(parameters) else { return [respond(op, .invalidParameter)] }
            receiptInterval = interval
            receiptCountdown = Int(interval)
            return [respond(op, .success)]
        case 0x03:
            return [checksum()]
        case 0x04:
            return execute(now: now)
        case 0x06:
            guard let type = parameters.first else { return [respond(op, .invalidParameter)] }
            return [select(type: type)]
        case 0x0C:
            return [respond(op, .success)] + reset(.aborted)
        case 0x00, 0x07, 0x09, 0x0A, 0x0B:
            // Protocol version, MTU, ping, hardware and firmware version: the BLE transport adds no
            // payload to these answers (nordic-secure-dfu.md §2, BLE caveat).
            return [respond(op, .success)]
        default:
            // Includes 0x08 (Write object), which only serial transports carry.
            return [respond(op, .opCodeNotSupported)]
        }
    }

    // MARK: Packet

    private mutating func packet(_ bytes: [UInt8], now: MonotonicInstant) -> [Action] {
        packetWriteCount += 1
        if configuration.droppedPacketWrites.contains(packetWriteCount) { return [.dropped(.bufferFull)] }
        var actions: [Action] = []
        let outcome = write(bytes)
        if outcome.dropped { actions.append(.dropped(.unalignedLength(bytes.count))) }
        receiptCountdown -= 1
        guard receiptInterval > 0, receiptCountdown <= 0 else { return actions }
        receiptCountdown = Int(receiptInterval)
        let payload = outcome.result == .success ? Self.le32(outcome.offset) + Self.le32(outcome.crc) : []
        actions.append(respond(0x03, outcome.result, payload: payload))
        return actions
    }

    /// What a Packet write did: its result, and the offset and CRC a receipt notification reports.
    struct WriteOutcome {
        var result: NordicDFUResult
        var offset: UInt32 = 0
        var crc: UInt32 = 0
        var dropped = false
    }

    // MARK: Encoding

    /// `60 <op> <result> [ext | payload]`.
    func respond(_ op: UInt8, _ result: NordicDFUResult, payload: [UInt8] = []) -> Action {
        var bytes = [Self.responseCode, op, result.code]
        if case .extended(let error) = result {
            bytes.append(error.rawValue)
        } else if result == .success {
            bytes += payload
        }
        return .notify(bytes)
    }

    static func le32(_ value: UInt32) -> [UInt8] { (0 ..< 4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    static func uint32(_ bytes: ArraySlice<UInt8>) -> UInt32? {
        guard bytes.count >= 4 else { return nil }
        return bytes.prefix(4).enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * $1.offset) }
    }

    static func uint16(_ bytes: ArraySlice<UInt8>) -> UInt16? {
        guard bytes.count >= 2 else { return nil }
        return bytes.prefix(2).enumerated().reduce(0) { $0 | UInt16($1.element) << (8 * $1.offset) }
    }
}
