extension MCUmgrSerial {
    /// boot_serial.c's command side: `boot_serial_input` and the `bs_*` handlers, for one image in
    /// a swap mode. Its statics (`bs_upload`'s offsets) live here and die with a reset.
    struct BootSerialServer {
        let configuration: MCUmgrSerialConfiguration
        /// `bs_upload`'s statics.
        var imageSize = 0
        var currentOffset = 0
        var imageNumber: UInt32 = 0
        var notYetErased = 0
        /// Flash work of the current command.
        var flashTime: Duration = .zero
        /// `bs_reset` answered: reboot after the answer and 250 ms.
        var resetRequested = false

        init(configuration: MCUmgrSerialConfiguration) {
            self.configuration = configuration
        }

        /// `boot_serial_input`: nil when the packet is ignored without an answer (shorter than a
        /// header, an op other than read or write, or a header length below the body's).
        mutating func input(_ packet: [UInt8], flash: inout DeviceFlash) -> [UInt8]? {
            guard let header = SMPHeader(packet),
                  header.op == SMPHeader.Op.read || header.op == SMPHeader.Op.write,
                  Int(header.length) >= packet.count - SMPHeader.size else { return nil }
            let body = packet[SMPHeader.size...]
            let answer: CBORItem
            switch (header.group, header.command) {
            case (Group.image, 0):
                answer = header.op == SMPHeader.Op.read ? list(flash) : setState(body, flash: &flash)
            case (Group.image, 1):
                answer = upload(body, flash: &flash)
            case (Group.os, 0) where configuration.recoveryEcho:
                answer = echo(body)
            case (Group.os, 1):
                answer = Self.rc(.ok)  // NMGR_ID_CONS_ECHO_CTRL
            case (Group.os, 5):
                resetRequested = true
                answer = Self.rc(.ok)  // bs_reset (the reset request hook is not modelled)
            case (Group.os, 6) where configuration.recoveryMCUmgrParameters:
                answer = .map([CBORPair("buf_size", .unsigned(UInt64(configuration.recoveryMaxReceiveSize))),
                               CBORPair("buf_count", .unsigned(1))])
            default:
                answer = Self.rc(.notSupported)
            }
            return output(header, answer)
        }

        /// `boot_serial_output`'s header: `nh_op++` on the request's own header (so the version
        /// bits stay as sent), flags 0, the body length; group, sequence and id unchanged.
        private func output(_ request: SMPHeader, _ answer: CBORItem) -> [UInt8] {
            let body = CBORWriter.encode(answer, canonical: configuration.canonicalCBOR)
            var header = request
            header.firstByte &+= 1
            header.flags = 0
            header.length = UInt16(truncatingIfNeeded: body.count)
            return header.bytes + body
        }

        /// `bs_rc_rsp`.
        static func rc(_ code: MgmtError) -> CBORItem { .map([CBORPair("rc", .unsigned(UInt64(code.rawValue)))]) }

        // MARK: Image list and state

        /// `bs_list`: each slot whose image validates (hash; the model checks no signature), with
        /// the state flags only when `BOOT_SERIAL_IMG_GRP_IMAGE_STATE`, "slot", "hash" when
        /// `BOOT_SERIAL_IMG_GRP_HASH` and found, "version".
        func list(_ flash: DeviceFlash) -> CBORItem {
            let swap = swapType(primary: flash.primary.trailer, secondary: flash.secondary.trailer)
            var images: [CBORItem] = []
            for slot in 0..<2 {
                guard let bytes = flash[slot]?.bytes, let image = bootValidate(bytes) else { continue }
                var pairs: [CBORPair] = []
                if configuration.recoveryImageState {
                    var active = false, confirmed = false, pending = false, permanent = false
                    switch swap {
                    case .none: if slot == 0 { confirmed = true; active = true }
                    case .test: if slot == 0 { confirmed = true } else { pending = true }
                    case .perm: if slot == 0 { confirmed = true } else { pending = true; permanent = true }
                    case .revert: if slot == 0 { active = true } else { confirmed = true }
                    }
                    if image.header.flags & ImageHeader.nonBootableFlag == 0 { pairs.append(CBORPair("bootable", .bool(true))) }
                    if confirmed { pairs.append(CBORPair("confirmed", .bool(true))) }
                    if active { pairs.append(CBORPair("active", .bool(true))) }
                    if pending { pairs.append(CBORPair("pending", .bool(true))) }
                    if permanent { pairs.append(CBORPair("permanent", .bool(true))) }
                }
                pairs.append(CBORPair("slot", .unsigned(UInt64(slot))))
                if configuration.recoveryImageHash, let hash = bootSerialHash(bytes) {
                    pairs.append(CBORPair("hash", .bytes(hash)))
                }
                pairs.append(CBORPair("version", .text(image.header.version.description)))
                images.append(.map(pairs))
            }
            return .map([CBORPair("images", .array(images))])
        }

        /// `bs_list_set` for a write: `bs_set` with `BOOT_SERIAL_IMG_GRP_IMAGE_STATE`, else
        /// MGMT_ERR_ENOTSUP. `bs_set` marks the *secondary* slot pending
        /// (`boot_set_pending_multi`) whichever slot the hash matched.
        mutating func setState(_ body: ArraySlice<UInt8>, flash: inout DeviceFlash) -> CBORItem {
            guard configuration.recoveryImageState else { return Self.rc(.notSupported) }
            var table: [String: ZCBORKind] = ["confirm": .bool]
            if configuration.recoveryImageHash { table["hash"] = .bytes }
            guard let values = zcborMapDecodeBulk(body, table) else { return Self.rc(.invalid) }
            let hash = values["hash"]?.bytes ?? []
            if configuration.recoveryImageHash {
                guard hash.isEmpty || hash.count == ImageTLV.hashLength else { return Self.rc(.invalid) }
                if !hash.isEmpty {
                    let found = (0..<2).contains { slot in
                        guard let bytes = flash[slot]?.bytes, bootValidate(bytes) != nil else { return false }
                        return bootSerialHash(bytes) == hash
                    }
                    guard found else { return Self.rc(.noEntry) }
                }
            }
            bootSetNext(&flash.secondary.trailer, active: false, confirm: values["confirm"]?.bool ?? false)
            return list(flash)
        }

        // MARK: Echo

        /// `bs_echo`: walks the map for "d" (a text string); it must be the last entry, because
        /// `zcbor_map_end_decode` then fails on what remains. Anything else: MGMT_ERR_EINVAL.
        func echo(_ body: ArraySlice<UInt8>) -> CBORItem {
            guard case .map(let pairs)? = CBORReader.decodeFirst(body) else { return Self.rc(.invalid) }
            for (index, pair) in pairs.enumerated() {
                guard case .text(let key) = pair.key else { return Self.rc(.invalid) }
                guard key == Array("d".utf8) else { continue }
                guard case .text(let value) = pair.value, index == pairs.count - 1 else { return Self.rc(.invalid) }
                return .map([CBORPair("r", .text(value))])
            }
            return Self.rc(.invalid)
        }
    }
}
