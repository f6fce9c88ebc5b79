import DFUCore

/// `boot_serial_input`'s table and the handlers behind it (boot_serial.c `bs_list`, `bs_upload`,
/// `bs_echo`, `bs_mcumgr_params`, `bs_reset`, `bs_rc_rsp`). Every answer is one CBOR map under the
/// request's header; failures are `{"rc": n}` (no group errors, whatever the request's version).
extension MCUbootSerialRecovery {
    struct Handled: Sendable {
        var actions: [Action]
        var duration: Duration = .zero
        var resets = false
    }

    /// MGMT_ERR_ENOTSUP.
    static let notSupported: Int64 = 8

    mutating func handle(_ request: RecoveryRequest, _ boot: inout MCUbootBootloader) -> Handled {
        switch (SMPGroup(rawValue: request.group), request.command) {
        case (.image, ImageMgmtCommand.state.rawValue):
            // Without IMG_GRP_IMAGE_STATE a state write is not supported.
            return Handled(actions: [.respond(request.isRead ? request.answer(Self.imageList(boot))
                                                            : request.answer(rc: Self.notSupported))])
        case (.image, ImageMgmtCommand.upload.rawValue):
            let outcome = upload.handle(request.body, &boot)
            var actions: [Action] = []
            if let started = outcome.started { actions.append(.uploadStarted(image: started.image, length: started.length)) }
            var body = CBORMap()
            body.append("rc", .int(outcome.rc))
            if outcome.rc == 0 { body.append("off", .unsigned(UInt64(outcome.offset))) }
            actions.append(.respond(request.answer(body)))
            if let completed = outcome.completed { actions.append(.uploadCompleted(image: completed.image, length: completed.length)) }
            return Handled(actions: actions, duration: outcome.duration)
        case (.os, OSMgmtCommand.echo.rawValue):
            return Handled(actions: [.respond(Self.echo(request))])
        case (.os, OSMgmtCommand.consoleEchoControl.rawValue):
            return Handled(actions: [.respond(request.answer(rc: 0))])
        case (.os, OSMgmtCommand.reset.rawValue):
            return Handled(actions: [.respond(request.answer(rc: 0))], resets: true)
        case (.os, OSMgmtCommand.mcumgrParameters.rawValue):
            let body: CBORMap = ["buf_size": .unsigned(UInt64(Self.maximumReceiveSize)), "buf_count": .unsigned(1)]
            return Handled(actions: [.respond(request.answer(body))])
        default:
            return Handled(actions: [.respond(request.answer(rc: Self.notSupported))])
        }
    }

    /// `bs_list`: every slot of every image whose image validates, as `slot`, `hash` (the SHA256
    /// TLV, `BOOT_SERIAL_IMG_GRP_HASH`) and `version` ("M.m.r", ".b" when b is not 0); `image`
    /// first when the device has more than one. No state flags.
    static func imageList(_ boot: MCUbootBootloader) -> CBORMap {
        var images: [CBORValue] = []
        for (index, pair) in boot.images.enumerated() {
            for slot in 0 ..< 2 {
                guard let held = pair.image(inSlot: slot),
                      pair.validationFailure(ofSlot: slot, key: boot.key, decryptionKey: boot.decryptionKey) == nil else { continue }
                var entry = CBORMap()
                if boot.images.count > 1 { entry.append("image", .unsigned(UInt64(index))) }
                entry.append("slot", .unsigned(UInt64(slot)))
                entry.append("hash", .bytes(held.hash))
                entry.append("version", .text(held.versionString))
                images.append(.map(entry))
            }
        }
        return ["images": .array(images)]
    }

    /// `bs_echo`: the keys are read in order, skipping values, up to `d`, which must be text and
    /// the map's last entry; anything else is `{"rc": 3}`.
    static func echo(_ request: RecoveryRequest) -> [UInt8] {
        let invalid = request.answer(rc: RecoveryUpload.invalid)
        guard let value = try? CBORDecoder().decode(request.body, allowTrailingBytes: true), let map = value.map else { return invalid }
        for (index, entry) in map.entries.enumerated() {
            guard let key = entry.key.text else { return invalid }
            guard key == "d" else { continue }
            guard let text = entry.value.text, index == map.entries.count - 1 else { return invalid }
            return request.answer(["r": .text(text)])
        }
        return invalid
    }
}
