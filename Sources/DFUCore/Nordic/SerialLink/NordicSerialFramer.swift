import Transport

/// Nordic Secure DFU on one serial byte stream, as the client sees it, without any I/O: requests
/// out as SLIP frames, bytes in (split anywhere) as the answers they complete, sorted by who reads
/// them (docs/nordic-serial.md).
///
/// - An answer to a shared Control Point request (`60 <01|02|03|04|06|0C> …`), a packet receipt
///   included, is passed on as it is: it has the bytes of the BLE notification, and the transfer
///   core parses it as one.
/// - An answer to a serial-only request (ping, MTU, versions) is parsed here, for the link itself.
/// - Anything else (line noise that happened to end in END, a frame the decoder dropped, an answer
///   to an opcode no bootloader defines) is dropped with a reason for the log. Over Bluetooth every
///   notification comes from the device; on a wire, bytes that start no answer are not one.
public struct NordicSerialFramer: Sendable {
    public enum Output: Sendable, Hashable {
        /// A Control Point answer (or packet receipt), unparsed.
        case controlPoint([UInt8])
        /// An answer to a serial-only request.
        case serial(NordicSerialResponse)
        /// Bytes thrown away, and why, in words for `--verbose`.
        case dropped(String)
    }

    private var decoder = SLIPDecoder(maximumFrameSize: NordicSerialLimits.maximumResponseFrameSize)

    public init() {}

    /// Decodes one chunk of the line; returns what it completed, in stream order.
    public mutating func receive(_ bytes: [UInt8]) -> [Output] {
        decoder.receive(bytes).map { event in
            switch event {
            case .frame(let frame): return Self.sort(frame)
            case .dropped(let error): return .dropped(error.description)
            }
        }
    }

    static func sort(_ frame: [UInt8]) -> Output {
        guard frame.count >= 3, frame[0] == NordicOpcode.responseCode else {
            return .dropped("a \(frame.count)-byte frame that is no answer (it starts "
                            + (frame.first.map { "0x" + hexDigits($0, width: 2) } ?? "with nothing") + ")")
        }
        if NordicOpcode(rawValue: frame[1]) != nil { return .controlPoint(frame) }
        do throws(NordicSerialWireError) {
            return .serial(try NordicSerialResponse(decoding: frame))
        } catch {
            return .dropped(error.description)
        }
    }

    /// A Control Point request's frame: the request's bytes as they are over BLE, SLIP-framed.
    public static func controlPointFrame(_ request: [UInt8]) -> [UInt8] {
        SLIPEncoder.encode(request)
    }

    /// The Write Object frames that carry `data` to the selected object, `payload` bytes at most
    /// each (`NordicSerialWriteSize.largestPayload`); empty for empty data.
    public static func writeObjectFrames(_ data: [UInt8], payload: Int) -> [[UInt8]] {
        let size = max(payload, 1)
        return stride(from: 0, to: data.count, by: size).map { start in
            NordicSerialRequest.writeObject(Array(data[start..<min(start + size, data.count)])).framed
        }
    }
}
