import DFUCore

/// One request buffer through Zephyr's smp.c: `smp_process_request_packet` walks the packets in the
/// buffer, `smp_handle_single_req` checks the version and finds the handler, `smp_on_err` builds the
/// error replies. Replies are encoded as zcbor does by default, with indefinite-length maps and
/// arrays.
extension SMPServer {
    struct ProcessedRequest: Sendable {
        var actions: [Action] = []
        var duration: Duration = .zero
        var usedResponseBuffer = false
    }

    static let encoder = CBOREncoder(containerLength: .indefinite)

    mutating func process(_ buffer: [UInt8]) -> ProcessedRequest {
        var result = ProcessedRequest(duration: configuration.requestOverhead)
        var rest = buffer[...]
        while !rest.isEmpty {
            guard rest.count >= SMPRequestHeader.size else {
                // smp_read_hdr fails: no header to address a reply to.
                result.actions.append(.dropped(.truncatedHeader(size: rest.count)))
                break
            }
            let header = SMPRequestHeader(rest)
            rest = rest.dropFirst(SMPRequestHeader.size)
            guard rest.count >= header.length else {
                result.actions.append(.respond(errorPacket(header, .corrupt)))
                break
            }
            let body = rest.prefix(header.length)
            rest = rest.dropFirst(header.length)
            guard header.isReadOrWrite else {
                result.actions.append(.respond(errorPacket(header, .notSupported)))
                break
            }
            if !result.usedResponseBuffer {
                // No response buffer: smp_on_err builds `rc 2` in the request's own buffer.
                guard pool.take() else {
                    result.actions.append(.respond(errorPacket(header, .noMemory)))
                    break
                }
                result.usedResponseBuffer = true
            }
            guard handleSingle(header, body: body, into: &result) else { break }
        }
        return result
    }

    /// Handles one packet; false when it ended in an SMP-level error, which stops the buffer.
    private mutating func handleSingle(_ header: SMPRequestHeader, body: ArraySlice<UInt8>,
                                       into result: inout ProcessedRequest) -> Bool {
        guard header.version <= SMPVersion.v2.rawValue else {
            result.actions.append(.respond(errorPacket(header, .protocolTooNew)))
            return false
        }
        guard let command = SMPCommand(header) else {
            result.actions.append(.respond(errorPacket(header, .notSupported)))
            return false
        }
        let map = command.readsBody ? decodeMap(body) : [:]
        let outcome = run(command, body: map)
        result.duration += outcome.duration
        if let progress = outcome.progress { result.actions.append(.uploadProgress(progress)) }

        let replyBody: CBORMap
        var succeeded = true
        switch outcome.reply {
        case .body(let map):
            replyBody = map
        case .groupError(let group, let rc) where header.version >= SMPVersion.v2.rawValue:
            replyBody = SMPError.groupError(group: group, rc: rc, reason: nil).body
        case .groupError(let group, let rc):
            // v1: smp_translate_error_code turns the group error into an SMP-level rc.
            replyBody = SMPError.mcumgr(Self.legacyCode(group: group, rc: rc)).body
            succeeded = false
        case .returnCode(let error):
            replyBody = SMPError.mcumgr(error).body
            succeeded = false
        }
        result.actions.append(.respond(packet(header, body: replyBody)))
        if let delay = outcome.resetAfter { result.actions.append(.resetRequested(after: delay, bootMode: outcome.bootMode)) }
        return succeeded
    }

    private mutating func run(_ command: SMPCommand, body: CBORMap?) -> CommandOutcome {
        switch command {
        case .osEcho: return OSManager.echo(body)
        case .osReset: return OSManager.reset(body, delay: configuration.resetDelay, bootMode: configuration.resetBootMode)
        case .osParameters: return OSManager.parameters(configuration)
        case .osBootloaderInfo:
            let mode = configuration.kind == .firmwareLoader ? MCUbootMode.firmwareLoader : bootloader.swapMode.reportedMode
            return OSManager.bootloaderInfo(body, mode: mode)
        case .osInfo: return OSInfo(imageCount: bootloader.images.count).answer(body)
        case .suitManifestList:
            // Only that the group answers is modelled, not the manifests a SUIT device lists.
            return configuration.kind == .suit ? .body([:]) : .rc(.notSupported)
        case .imageStateRead: return images.stateRead(bootloader)
        case .imageSlotInfo: return images.slotInfo(bootloader)
        case .imageStateWrite, .imageUpload, .imageErase:
            guard let body else { return .rc(.invalidValue) }
            switch command {
            case .imageStateWrite: return images.stateWrite(body, &bootloader)
            case .imageUpload:
                // A plain rc, as a handler returning MGMT_ERR_EBUSY gets from smp.c.
                if takeBusyAnswer() { return .rc(.busy) }
                return images.upload(body, &bootloader)
            default: return images.erase(body, &bootloader)
            }
        }
    }

    /// The request map, or nil when the body is not one CBOR map (zcbor's bulk decode fails).
    private func decodeMap(_ body: ArraySlice<UInt8>) -> CBORMap? {
        guard let value = try? CBORDecoder().decode(body) else { return nil }
        return value.map
    }

    private static func legacyCode(group: SMPGroup, rc: Int64) -> MCUmgrError {
        switch group {
        case .image: return ImageMgmtError(rawValue: rc)?.legacyCode ?? .unknown
        case .os: return OSMgmtError(rawValue: rc)?.legacyCode ?? .unknown
        default: return .unknown
        }
    }

    private func errorPacket(_ header: SMPRequestHeader, _ error: MCUmgrError) -> [UInt8] {
        packet(header, body: SMPError.mcumgr(error).body)
    }

    /// The encoded reply; one that would not fit a buffer becomes `rc 7` (EMSGSIZE), as zcbor runs
    /// out of room in the response buffer.
    private func packet(_ header: SMPRequestHeader, body: CBORMap) -> [UInt8] {
        let response = SMPPacket(header: header.responseHeader(), body: body)
        if let bytes = try? response.encoded(using: Self.encoder), bytes.count <= configuration.bufferSize {
            return bytes
        }
        let tooLarge = SMPPacket(header: header.responseHeader(), body: SMPError.mcumgr(.responseTooLarge).body)
        return (try? tooLarge.encoded(using: Self.encoder)) ?? []
    }
}
