import DFUCore
import Transport

/// The virtual nRF52 as its serial port sees it: the nRF5 SDK bootloader's UART or USB CDC ACM DFU
/// transport (`nrf_dfu_serial.c`, `nrf_dfu_serial_uart.c`, `nrf_dfu_serial_usb.c`) in front of the
/// one Nordic device model (`NordicVirtualDevice`, its bootloader and application), as one
/// sans-I/O value: line bytes in, framed answers and what happened out.
///
/// - Requests are SLIP-decoded (a frame longer than the transport's buffer, opcode and `payload`
///   bytes, is dropped, as the SDK's decoder refuses it with NO_MEM).
/// - The shared requests go to the model as Control Point writes, Write Object data as Packet
///   writes; the model's Control Point notifications are the answers, packet receipts included
///   (`60 03 …`: the same bytes over both transports).
/// - Ping, Protocol Version (1), Get MTU (131 for UART, 2051 for USB), Hardware and Firmware
///   Version are the transport's (`NordicSerialVersions`).
/// - The line has no connection and no CCCD: the model is told `.connected` and `.subscribed`
///   before the first request after it started (or after it closed its side, `drop=`).
/// - While the device resets or runs its application, nothing reads the line: bytes are ignored.
///
/// Validation is the model's; the SDK reads parameters without checking their lengths, the sim
/// answers a request of the wrong length with INVALID PARAMETER and an unknown opcode with OP CODE
/// NOT SUPPORTED, as `nrf_dfu_req_handler_on_req` does for the latter.
public struct NordicSerialDevice: Sendable {
    public enum Output: Sendable, Equatable {
        /// One answer, framed, to write to the line.
        case send([UInt8])
        /// The device resets now: a USB port vanishes after the answers before this.
        case resetting(NordicResetCause)
        /// The bootloader closed its side (`drop=`): a USB port goes and comes back at once.
        case linkDropped(NordicLinkDrop)
        /// Up again after a reset: a USB port comes back.
        case online
        /// Power is gone (`powerCycle`): nothing queued leaves any more, and a USB port vanishes at once.
        case poweredOff
        /// For the log.
        case event(NordicSerialServerEvent)
    }

    public private(set) var model: NordicVirtualDevice
    /// What Get MTU answers: the largest SLIP frame the transport takes.
    public let mtu: UInt16
    /// The USB transport: its port closes when the bootloader drops the line.
    public let usb: Bool
    private var decoder: SLIPDecoder
    /// Whether the model has been told the line is open since it last started or dropped it.
    private var attached = false

    /// `usb`: the USB CDC ACM transport (MTU 2051) rather than the UART (131).
    public init(model: NordicVirtualDevice, usb: Bool) {
        self.model = model
        self.usb = usb
        mtu = usb ? NordicSerialLimits.usbMTU : NordicSerialLimits.uartMTU
        // Opcode and payload: the transport's receive buffer (64 + 1 for UART, 1024 + 1 for USB).
        let payload = NordicSerialWriteSize.largestPayload(mtu: mtu) ?? 1
        decoder = SLIPDecoder(maximumFrameSize: payload + 1)
    }

    public var nextDeadline: MonotonicInstant? { model.nextDeadline }

    /// What runs now, in words.
    public var running: String {
        switch model.mode {
        case .application:
            return "application \(NordicAppVersion.text(model.applicationVersion)) (fw_version \(model.applicationVersion))"
        case .bootloader: return "the bootloader (DFU mode)"
        case .booting: return "nothing yet (booting)"
        }
    }

    /// Time passes: the end of a boot, the bootloader's inactivity timeout.
    public mutating func tick(now: MonotonicInstant) -> [Output] {
        route(model.handle(.tick, now: now))
    }

    /// Power removed and restored at once (`enterBootloader`: with the DFU button held): RAM and
    /// a half-read frame are gone, and the device boots again.
    public mutating func powerCycle(enterBootloader: Bool, now: MonotonicInstant) -> [Output] {
        decoder.reset()
        let outputs = tick(now: now) + [.event(.powerCycled(enterBootloader: enterBootloader)), .poweredOff]
        return outputs + route(model.handle(.powerCycle(enterBootloader: enterBootloader), now: now))
    }

    /// Bytes from the line.
    public mutating func receive(_ bytes: [UInt8], now: MonotonicInstant) -> [Output] {
        var outputs = tick(now: now)
        guard case .bootloader = model.mode else {
            decoder.reset()
            outputs.append(.event(.ignored(size: bytes.count, while: "the device runs \(running)")))
            return outputs
        }
        for event in decoder.receive(bytes) {
            switch event {
            case .dropped(let error):
                outputs.append(.event(.inputDropped(error.description)))
            case .frame(let frame):
                outputs += handle(frame, now: now)
                // A request may reset the device, or close a USB port: the rest of the chunk
                // reaches nobody.
                let portClosed = usb && outputs.contains { if case .linkDropped = $0 { true } else { false } }
                guard case .bootloader = model.mode, !portClosed else {
                    decoder.reset()
                    return outputs
                }
            }
        }
        return outputs
    }

    private mutating func handle(_ frame: [UInt8], now: MonotonicInstant) -> [Output] {
        guard let request = NordicSerialRequest(decoding: frame) else {
            return [.event(.receivedUnreadable(size: frame.count))] + refuse(frame)
        }
        var outputs: [Output] = [.event(.received(request))]
        switch request {
        case .controlPoint, .writeObject:
            if !attached {
                attached = true
                outputs += route(model.handle(.connected, now: now))
                outputs += route(model.handle(.subscribed(NordicDeviceGATT.controlPoint), now: now))
            }
            if case .writeObject(let data) = request {
                outputs += route(model.handle(.write(NordicDeviceGATT.packet, data, withResponse: false), now: now))
            } else {
                outputs += route(model.handle(.write(NordicDeviceGATT.controlPoint, frame, withResponse: true), now: now))
            }
        case .ping(let id):
            outputs += answer(.ping(id: id))
        case .protocolVersion:
            outputs += answer(.protocolVersion(1))
        case .getMTU:
            outputs += answer(.mtu(mtu))
        case .hardwareVersion:
            outputs += answer(.hardwareVersion(NordicSerialVersions.hardware(model.configuration.bootloader.chip)))
        case .firmwareVersion(let image):
            outputs += answer(.firmwareVersion(NordicSerialVersions.firmware(image: image, chip: model.configuration.bootloader.chip,
                                                                             settings: model.currentSettings)))
        }
        return outputs
    }

    /// A frame `NordicSerialRequest` cannot read: a known opcode with parameters of the wrong length,
    /// or an unknown opcode.
    private func refuse(_ frame: [UInt8]) -> [Output] {
        guard let opcode = frame.first else { return [] }
        let known = NordicOpcode(rawValue: opcode) != nil || NordicSerialOpcode(rawValue: opcode) != nil
        let result: NordicResultCode = known ? .invalidParameter : .opcodeNotSupported
        return send([NordicOpcode.responseCode, opcode, result.rawValue])
    }

    private func answer(_ response: NordicSerialResponse) -> [Output] {
        send(response.encoded)
    }

    private func send(_ answer: [UInt8]) -> [Output] {
        [.send(SLIPEncoder.encode(answer)), .event(.replied(answer))]
    }

    /// Carries out the model's actions on a line.
    private mutating func route(_ actions: [NordicVirtualDevice.Action]) -> [Output] {
        var outputs: [Output] = []
        for action in actions {
            switch action {
            case .notify(_, let bytes):
                outputs += send(bytes)
            case .refuseWrite(let error):
                // No ATT on a line; the model refuses only writes a serial transport never makes.
                outputs.append(.event(.inputDropped("a write the bootloader refused (\(error))")))
            case .dropLink:
                attached = false
            case .offline:
                attached = false
            case .online:
                outputs.append(.event(.online(boot: model.boots.count, running: running)))
                outputs.append(.online)
            case .bootloader(.dropped(let drop)):
                outputs.append(.event(.packetDropped(drop)))
            case .bootloader(.dropLink(let point)):
                outputs.append(.event(.linkDropped(point)))
                outputs.append(.linkDropped(point))
            case .bootloader(.reset(let cause)):
                outputs.append(.event(.resetting(cause)))
                outputs.append(.resetting(cause))
            case .bootloader(.notify), .bootloader(.refuseWrite):
                continue // also reported as the device's own `.notify` and `.refuseWrite`
            case .answerDamaged(let fault):
                outputs.append(.event(.faultInjected(fault)))
            }
        }
        return outputs
    }
}
