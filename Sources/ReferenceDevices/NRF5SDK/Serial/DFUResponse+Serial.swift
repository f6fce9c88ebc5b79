/// nrf_dfu_serial.c `response_send`: `60 <op> <result>`, then, on success, the payload the op code
/// calls for, little-endian (`uint32_encode`, `uint16_encode`); after result 0B the extended error
/// (`response_ext_err_payload_add`); after any other failure nothing. The payload is chosen by the
/// op code, reading the answer's union; an op code with no payload case (Create, Execute, Set PRN,
/// Abort, unknown ones) carries none.
extension DFUResponse {
    var serialBytes: [UInt8] {
        var bytes = [DFUOpCode.response, opCode] + status.bytes
        guard status.isSuccess else { return bytes }
        switch (opCode, payload) {
        case (DFUOpCode.protocolVersion, .protocolVersion(let version)):
            bytes.append(version)
        case (DFUOpCode.hardwareVersion, .hardware(let chip)):
            for word in [chip.part, chip.variant, chip.flashKiB &* 1024, chip.ramKiB &* 1024, chip.codePageSize] {
                bytes += Self.littleEndian(word)
            }
        case (DFUOpCode.firmwareVersion, .firmware(let type, let version, let address, let length)):
            bytes.append(type)
            bytes += Self.littleEndian(version) + Self.littleEndian(address) + Self.littleEndian(length)
        case (DFUOpCode.calculateChecksum, .checksum(let offset, let crc)):
            bytes += Self.littleEndian(offset) + Self.littleEndian(crc)
        case (DFUOpCode.select, .select(let maxSize, let offset, let crc)):
            bytes += Self.littleEndian(maxSize) + Self.littleEndian(offset) + Self.littleEndian(crc)
        case (DFUOpCode.mtuGet, .mtu(let size)):
            bytes += [UInt8(truncatingIfNeeded: size), UInt8(truncatingIfNeeded: size >> 8)]
        case (DFUOpCode.ping, .ping(let id)):
            bytes.append(id)
        default:
            break
        }
        return bytes
    }
}
