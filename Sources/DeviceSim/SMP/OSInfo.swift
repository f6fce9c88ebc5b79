import DFUCore

/// `os_mgmt_info` (Zephyr os_mgmt.c, `CONFIG_MCUMGR_GRP_OS_INFO`): uname-style text for the
/// `format` letters, in Zephyr's fixed order whatever the order asked; an unknown letter is the OS
/// group's INVALID_FORMAT (2); no format is the kernel name. What this device answers: a Zephyr
/// build for an nRF52840 DK, or with two images an nRF5340 DK's application core (hardware
/// model v2, whose `CONFIG_BOARD` is the board name without the core qualifiers).
struct OSInfo: Sendable {
    let board: String
    let processor: String

    init(imageCount: Int) {
        board = imageCount > 1 ? "nrf5340dk" : "nrf52840dk"
        processor = imageCount > 1 ? "cortex-m33" : "cortex-m4"
    }

    func answer(_ body: CBORMap?) -> CommandOutcome {
        guard let body, let request = try? OSInfoRequest(body: body) else { return .rc(.invalidValue) }
        let format = request.format ?? ""
        // (letter, text) in the order os_mgmt_info appends them; `b` needs a build-time option.
        let fields: [(Character, String)] = [
            ("s", "Zephyr"), ("n", "dfu-sim"), ("r", "unknown"), ("v", "3.7.99"), ("m", "arm"),
            ("p", processor), ("i", board), ("o", "Zephyr"),
        ]
        let letters = Set(fields.map(\.0)).union(["a"])
        guard format.allSatisfy(letters.contains) else {
            return CommandOutcome(reply: .groupError(.os, OSMgmtError.invalidFormat.rawValue))
        }
        let wanted = format.isEmpty ? ["s"] : format.contains("a") ? Set(fields.map(\.0)) : Set(format)
        let output = fields.filter { wanted.contains($0.0) }.map(\.1).joined(separator: " ")
        return .body(OSInfoResponse(output: output).body)
    }
}
