import DFUCore
import Transport

/// MCUboot's serial recovery (mcu-tools/mcuboot `boot/boot_serial/src/boot_serial.c`), the
/// bootloader answering SMP on the serial line itself, as one sans-I/O value: decoded packets in
/// (the line's framing is the server's, the same console framing or raw packets the application
/// uses), answers and the reset out, flash worked on through the bootloader model it is handed.
///
/// What it answers is `boot_serial_input`'s table (`MCUbootSerialRecovery+Commands.swift`):
/// image list (1/0 read), upload (1/1, into the primary slot, `RecoveryUpload`), echo (0/0),
/// console echo control (0/1), reset (0/5), MCUmgr parameters (0/6); anything else `{"rc": 8}`.
/// It models a build with `BOOT_MGMT_ECHO` and `BOOT_MGMT_MCUMGR_PARAMS` on and
/// `BOOT_SERIAL_IMG_GRP_IMAGE_STATE` and slot info off.
///
/// Timing: MCUboot reads and handles one request at a time in its main loop (`buf_count` 1): a
/// request takes its flash time, and its answer goes out when that is over. Lines that arrive
/// meanwhile wait in the UART driver's line buffers; the model keeps one whole request waiting and
/// drops any further one. A packet whose decoded frame would not fit the receive buffer
/// (`BOOT_SERIAL_MAX_RECEIVE_SIZE` + 1: length, packet and CRC for the console framing) is dropped
/// without an answer, as is one `boot_serial_input` ignores. After the reset answer MCUboot sleeps
/// 250 ms and reboots (`bs_reset`); nothing is read meanwhile.
public struct MCUbootSerialRecovery: Sendable {
    public enum Action: Sendable, Hashable {
        /// One answer packet (header and CBOR body), to frame and write.
        case respond([UInt8])
        /// The reset's 250 ms are over: the device resets now.
        case reset
        /// An upload into `image`'s primary slot began (an `off` 0 request was accepted).
        case uploadStarted(image: Int, length: Int)
        /// The upload reached its `len`.
        case uploadCompleted(image: Int, length: Int)
        /// A packet dropped without an answer, and why (for the log).
        case dropped(String)
    }

    /// `BOOT_SERIAL_MAX_RECEIVE_SIZE` (Kconfig default): the `buf_size` reported; the decode buffer
    /// holds one byte more.
    public static let maximumReceiveSize = 1024
    /// `bs_reset`: from the answer to the reboot.
    public static let resetDelay = Duration.milliseconds(250)

    public let framing: SMPStreamFraming
    /// The upload's state (RAM).
    var upload = RecoveryUpload()
    private var job: Job?
    private var waiting: [UInt8]?
    private var resetAt: MonotonicInstant?

    /// The request being handled: its actions come out when its flash time is over.
    private struct Job: Sendable {
        let completion: MonotonicInstant
        let actions: [Action]
        let resets: Bool
    }

    public init(framing: SMPStreamFraming) {
        self.framing = framing
    }

    /// The earliest instant at which `tick` has something to do.
    public var nextDeadline: MonotonicInstant? { job?.completion ?? resetAt }

    /// The largest packet (header and body) the receive buffer takes in this framing.
    public var largestPacket: Int {
        switch framing {
        case .console: return Self.maximumReceiveSize + 1 - SMPSerialFraming.overhead
        case .raw: return Self.maximumReceiveSize + 1
        }
    }

    /// One decoded packet from the line.
    public mutating func receive(_ packet: [UInt8], now: MonotonicInstant, bootloader: inout MCUbootBootloader) -> [Action] {
        var actions = tick(now: now, bootloader: &bootloader)
        if resetAt != nil {
            actions.append(.dropped("\(packet.count) bytes while MCUboot waits to reset"))
        } else if packet.count > largestPacket {
            actions.append(.dropped("a \(packet.count)-byte packet: larger than MCUboot's receive buffer (\(largestPacket) bytes)"))
        } else if job == nil {
            actions += start(packet, at: now, &bootloader)
        } else if waiting == nil {
            waiting = packet
        } else {
            actions.append(.dropped("a \(packet.count)-byte packet while MCUboot handles one and has another waiting"))
        }
        return actions
    }

    /// Time passes: answers whose flash time is over, the reset.
    public mutating func tick(now: MonotonicInstant, bootloader: inout MCUbootBootloader) -> [Action] {
        var actions: [Action] = []
        while let current = job, current.completion <= now {
            job = nil
            actions += current.actions
            if current.resets {
                resetAt = current.completion.advanced(by: Self.resetDelay)
                waiting = nil
            } else if let next = waiting {
                waiting = nil
                actions += start(next, at: current.completion, &bootloader)
            }
        }
        if job == nil, let due = resetAt, due <= now {
            resetAt = nil
            actions.append(.reset)
        }
        return actions
    }

    /// Handles `packet` from `time` on; what takes no flash time is answered at once.
    private mutating func start(_ packet: [UInt8], at time: MonotonicInstant, _ boot: inout MCUbootBootloader) -> [Action] {
        guard let request = RecoveryRequest(packet) else {
            return [.dropped("a \(packet.count)-byte packet boot_serial_input ignores (no request header)")]
        }
        let handled = handle(request, &boot)
        job = Job(completion: time.advanced(by: handled.duration), actions: handled.actions, resets: handled.resets)
        return tick(now: time, bootloader: &boot)
    }
}
