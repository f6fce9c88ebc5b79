import DFUCore
import ExitCodes
import Transport

/// How `dfu info` shows a device: an aligned table for people, one JSON object for scripts
/// (fields in docs/json-events.md). Both show the same facts. Text from the device (its firmware
/// revision, versions) goes through `TerminalText` on the terminal.
///
///     device             …:89:39
///     link               MTU 498, writes up to 495 bytes, 2M PHY, interval 7.5 ms
///     MCUmgr buffers     4 × 2475 bytes (3 requests in flight)
///     bootloader mode    swap without scratch
///     slot size          385.0 kB (385024 bytes)
///     battery            80 %
///     firmware revision  1.0.0
///     slot 0             1.0.0: running, confirmed
///     slot 0 hash        8d6b90949b26d804567e1c7a273066596bf7320574da611f903d6d6365cb44fc
///     slot 1             empty
enum InfoOutput {
    /// `serial`: the port the device was read on, whose link row shows the line instead of an MTU.
    static func table(_ info: DeviceInfo, serial: SerialEndpoint? = nil) -> String {
        var table = AlignedTable()
        let link = info.connection
        let facts = info.facts
        table.add("device", link.device)
        table.add("link", serial.map { SerialLinkOutput(endpoint: $0, info: info).text } ?? linkDescription(link))
        if let security = link.security { table.add("security", securityDescription(security)) }
        if let nordic = info.nordic {
            NordicInfoOutput.add(nordic, facts, to: &table)
            return table.rendered
        }
        if let size = facts.bufferSize, let count = facts.bufferCount {
            let window = link.window == 1 ? "1 request" : "\(link.window) requests"
            table.add("MCUmgr buffers", "\(count) × \(size) bytes (\(window) in flight)")
        } else {
            table.add("MCUmgr buffers", "not reported (one request at a time)")
        }
        table.add("bootloader mode", facts.bootloaderMode.map(TerminalText.sanitized) ?? "not reported")
        if let what = facts.unsupported { table.add("dfu support", "not supported: " + what) }
        table.add("slot size", facts.slotSize.map { "\(HumanUnits.bytes($0)) (\($0) bytes)" } ?? "not reported")
        table.add("battery", facts.batteryLevel.map { "\($0) %" } ?? "not reported (no Battery Service)")
        table.add("firmware revision", facts.firmwareRevision.map(TerminalText.sanitized) ?? "not reported")
        if let board = info.board { table.add("board", TerminalText.sanitized(board)) }
        let numbered = info.slots.contains { ($0.image ?? 0) != 0 }
        let recovery = facts.bootloaderMode == DeviceFacts.serialRecoveryMode
        var indexes: [UInt64] = []
        for slot in info.slots where !indexes.contains(slot.image ?? 0) { indexes.append(slot.image ?? 0) }
        for index in indexes {
            let slots = info.slots.filter { ($0.image ?? 0) == index }
            if let core = info.imageCores[index] { table.add("image \(index)", core) }
            for slot in slots {
                let label = slotLabel(slot.image, slot.slot, numbered: numbered)
                // MCUboot's recovery lists only images that pass its checks, and no state flags.
                table.add(label, TerminalText.sanitized(versionText(slot)) + ": "
                          + (recovery ? "valid (MCUboot lists it)" : flags(slot)))
                if !slot.hash.isEmpty { table.add(label + " hash", hexString(slot.hash)) }
            }
            // MCUboot has two slots per image; Zephyr lists only those holding an image.
            if slots.contains(where: { $0.slot == 0 }), !slots.contains(where: { $0.slot == 1 }) {
                table.add(slotLabel(index, 1, numbered: numbered), "empty")
            }
        }
        return table.rendered
    }

    /// The one-line result. On failure only `device`, the status and `error` (as `verify` leaves out
    /// the image fields when the image could not be read). Over a serial port `mtu` and `max_write`
    /// are null and `serial` says what the line is.
    static func json(device: String, _ result: Result<DeviceInfo, DFUError>, serial: SerialEndpoint? = nil,
                     warnings: [String]) -> JSONValue {
        let status: ExitStatus
        switch result {
        case .success: status = .success
        case .failure(let error): status = error.exitStatus
        }
        var fields = JSONEvent.head("result") + [
            JSONField("command", .string(InfoCommand.name)),
            JSONField("device", .string(device)),
            JSONField("ok", .bool(status == .success)),
            JSONField("exit_code", .int(Int(status.rawValue))),
        ]
        switch result {
        case .failure(let error):
            fields.append(JSONField("error", .string(error.description)))
        case .success(let info):
            let link = info.connection
            let facts = info.facts
            fields += [
                JSONField("protocol", .string(info.updateProtocol.rawValue)),
                JSONField("mtu", serial == nil ? .int(link.attMTU) : .null),
                JSONField("max_write", serial == nil ? .int(link.maxWrite) : .null),
                JSONField("phy", link.phy.map { .string($0) } ?? .null),
                JSONField("interval_ms", link.connectionInterval.map {
                    .number($0.seconds * 1000, maximumFractionDigits: 3)
                } ?? .null),
                JSONField("window", .int(link.window)),
                JSONField("security", link.security.map(securityJSON) ?? .null),
                JSONField("buf_size", facts.bufferSize.map { .int($0) } ?? .null),
                JSONField("buf_count", facts.bufferCount.map { .int($0) } ?? .null),
                JSONField("bootloader_mode", facts.bootloaderMode.map { .string($0) } ?? .null),
                JSONField("unsupported", facts.unsupported.map { .string($0) } ?? .null),
                JSONField("slot_size", facts.slotSize.map { .int($0) } ?? .null),
                JSONField("battery", facts.batteryLevel.map { .int($0) } ?? .null),
                JSONField("firmware_revision", facts.firmwareRevision.map { .string($0) } ?? .null),
                JSONField("running_version", facts.runningVersion.map { .string($0.description) } ?? .null),
                JSONField("running_sha256", facts.runningHash.map { .string(hexString($0)) } ?? .null),
                JSONField("board", info.board.map { .string($0) } ?? .null),
                JSONField("slots", .array(info.slots.map { slotJSON($0, core: info.imageCores[$0.image ?? 0]) })),
                JSONField("nordic", info.nordic.map(NordicInfoOutput.json) ?? .null),
                JSONField("serial", serial.map { SerialLinkOutput(endpoint: $0, info: info).json } ?? .null),
                JSONField("warnings", .array(warnings.map { .string($0) })),
                JSONField("error", .null),
            ]
        }
        return .object(fields)
    }

    /// A slot's version as dfu writes versions everywhere (`1.2.3+45`; Zephyr's image list says
    /// `1.2.3.45`); a text that is no version is shown as the device sent it.
    static func versionText(_ slot: ImageSlotState) -> String {
        slot.imageVersion?.description ?? slot.version
    }

    static func slotJSON(_ slot: ImageSlotState, core: String?) -> JSONValue {
        .object([
            JSONField("image", .int(Int(clamping: slot.image ?? 0))),
            JSONField("slot", .int(Int(clamping: slot.slot))),
            JSONField("version", .string(versionText(slot))),
            JSONField("sha256", .string(hexString(slot.hash))),
            JSONField("active", .bool(slot.active)),
            JSONField("pending", .bool(slot.pending)),
            JSONField("confirmed", .bool(slot.confirmed)),
            JSONField("permanent", .bool(slot.permanent)),
            JSONField("bootable", .bool(slot.bootable)),
            JSONField("core", core.map { .string($0) } ?? .null),
        ])
    }

    /// `MTU 498, writes up to 495 bytes, 2M PHY, interval 7.5 ms`; what the backend does not know
    /// (BlueZ reports neither PHY nor interval over D-Bus) is left out.
    private static func linkDescription(_ link: ConnectionSummary) -> String {
        var parts = ["MTU \(link.attMTU)", "writes up to \(link.maxWrite) bytes"]
        if let phy = link.phy { parts.append("\(phy) PHY") }
        if let interval = link.connectionInterval { parts.append("interval " + HumanUnits.milliseconds(interval)) }
        return parts.joined(separator: ", ")
    }

    /// `bonded, encrypted, authenticated (paired now)`, or `not paired (the device did not ask
    /// for it)`. BlueZ does not say whether an earlier bond is authenticated: then it says so.
    static func securityDescription(_ security: LinkSecurity) -> String {
        guard security.paired else { return "not paired (the device did not ask for it)" }
        var words = [security.bonded ? "bonded" : "paired (not bonded)"]
        if security.encrypted == true { words.append("encrypted") }
        switch security.authenticated {
        case true?: words.append("authenticated")
        case false?: words.append("not authenticated (Just Works)")
        case nil: words.append("authentication of the bond not reported by BlueZ")
        }
        return words.joined(separator: ", ") + (security.pairedNow ? " (paired now)" : " (existing bond)")
    }

    private static func securityJSON(_ security: LinkSecurity) -> JSONValue {
        .object([
            JSONField("paired", .bool(security.paired)),
            JSONField("bonded", .bool(security.bonded)),
            JSONField("encrypted", security.encrypted.map { .bool($0) } ?? .null),
            JSONField("authenticated", security.authenticated.map { .bool($0) } ?? .null),
            JSONField("paired_now", .bool(security.pairedNow)),
        ])
    }

    /// What the slot's flags mean for the next reset, in words.
    private static func flags(_ slot: ImageSlotState) -> String {
        var words: [String] = []
        if slot.active { words.append("running") }
        if slot.pending { words.append(slot.permanent ? "pending: permanent at the next reset" : "pending: test at the next reset") }
        if slot.confirmed { words.append("confirmed") }
        if !slot.bootable { words.append("not bootable") }
        return words.isEmpty ? "inactive" : words.joined(separator: ", ")
    }

    private static func slotLabel(_ image: UInt64?, _ slot: UInt64, numbered: Bool) -> String {
        numbered ? "image \(image ?? 0) slot \(slot)" : "slot \(slot)"
    }
}
