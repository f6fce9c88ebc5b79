extension MCUmgrSerial {
    /// The mcumgr side of the running Zephyr application: smp.c's request processing with the OS
    /// and image groups. RAM only: a reset starts a fresh one.
    struct ZephyrSMPServer {
        let configuration: MCUmgrSerialConfiguration
        /// img_mgmt.c `g_img_mgmt_state`.
        var upload = ImageUploadState()
        /// Flash work the current request caused (erase and program time), for the clock.
        var flashTime: Duration = .zero
        /// Set by the reset handler: reboot this long after the handler ran, into this boot mode.
        var requestedReset: Duration?

        init(configuration: MCUmgrSerialConfiguration) {
            self.configuration = configuration
        }

        /// smp.c `smp_process_request_packet`: every SMP message in the packet in turn, one response
        /// each; the first failure ends the packet with an error response (`smp_on_err`) when its
        /// header was read. `responseBuffer` says whether `smp_alloc_rsp` finds a netbuf.
        mutating func process(_ packet: [UInt8], responseBuffer: Bool, flash: inout DeviceFlash) -> [[UInt8]] {
            var responses: [[UInt8]] = []
            var offset = 0
            while offset < packet.count {
                guard let header = SMPHeader(packet, at: offset) else { break }  // ECORRUPT, no valid header: silent
                offset += SMPHeader.size
                guard packet.count - offset >= Int(header.length) else {
                    responses.append(errorResponse(header, .corrupt))
                    break
                }
                guard header.op == SMPHeader.Op.read || header.op == SMPHeader.Op.write else {
                    // Not a request: MGMT_ERR_ENOTSUP (the SMP client, which takes responses, is off).
                    responses.append(errorResponse(header, .notSupported))
                    break
                }
                guard responseBuffer else {
                    responses.append(errorResponse(header, .noMemory))
                    break
                }
                let payload = packet[offset...]
                let outcome = handleSingle(header, payload: payload, flash: &flash)
                if let rc = failure(of: outcome, version: header.version) {
                    responses.append(errorResponse(header, rc))
                    break
                }
                let body = CBORWriter.encode(.map(outcome.pairs), canonical: configuration.canonicalCBOR)
                responses.append(responseHeader(header, length: body.count) + body)
                offset += Int(header.length)
            }
            return responses
        }

        /// smp.c `smp_handle_single_req`'s decision: the handler's rc, or for a version-0 request a
        /// group error translated to a legacy rc (`smp_translate_error_code`; unknown group → 1).
        private func failure(of outcome: HandlerOutcome, version: UInt8) -> MgmtError? {
            if outcome.rc != .ok { return outcome.rc }
            if configuration.supportOriginalProtocol, version == 0, let error = outcome.groupError {
                guard error.group == Group.image, let code = ImageError(rawValue: error.code) else { return .unknown }
                return code.legacy
            }
            return nil
        }

        private mutating func handleSingle(_ header: SMPHeader, payload: ArraySlice<UInt8>, flash: inout DeviceFlash) -> HandlerOutcome {
            if !configuration.supportOriginalProtocol, header.version == 0 { return .failure(.unsupportedTooOld) }
            if header.version > 1 { return .failure(.unsupportedTooNew) }
            let write = header.op == SMPHeader.Op.write
            switch (header.group, header.command, write) {
            case (Group.os, 0, _) where configuration.osEcho:
                return echo(payload)
            case (Group.os, 5, true):
                return reset(payload, flash: &flash)
            case (Group.os, 6, false) where configuration.osMCUmgrParameters:
                return .ok([CBORPair("buf_size", .unsigned(UInt64(configuration.netbufSize))),
                            CBORPair("buf_count", .unsigned(UInt64(configuration.netbufCount)))])
            case (Group.image, 0, false):
                return imageStateRead(flash: flash)
            case (Group.image, 0, true):
                return imageStateWrite(payload, flash: &flash)
            case (Group.image, 1, true):
                return imageUpload(payload, flash: &flash)
            case (Group.image, 5, true):
                return imageErase(payload, flash: &flash)
            default:
                // mgmt_find_handler found nothing, or no handler for this op: MGMT_ERR_ENOTSUP.
                return .failure(.notSupported)
            }
        }

        /// smp.c `smp_make_rsp_hdr`: READ → READ_RSP, anything else → WRITE_RSP; version capped at
        /// 1 (SMP_MCUMGR_VERSION_2); flags 0; group, sequence and id copied.
        private func responseHeader(_ request: SMPHeader, length: Int) -> [UInt8] {
            let op = request.op == SMPHeader.Op.read ? SMPHeader.Op.readResponse : SMPHeader.Op.writeResponse
            return SMPHeader(op: op, version: min(request.version, 1), length: UInt16(truncatingIfNeeded: length),
                             group: request.group, sequence: request.sequence, command: request.command).bytes
        }

        /// smp.c `smp_build_err_rsp`: `{"rc": status}` ("rsn" needs CONFIG_MCUMGR_SMP_VERBOSE_ERR_RESPONSE, n).
        private func errorResponse(_ request: SMPHeader, _ rc: MgmtError) -> [UInt8] {
            let body = CBORWriter.encode(.map([CBORPair("rc", .unsigned(UInt64(rc.rawValue)))]), canonical: configuration.canonicalCBOR)
            return responseHeader(request, length: body.count) + body
        }
    }
}
