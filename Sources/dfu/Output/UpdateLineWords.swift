import DFUCore

/// The words of `TerminalRenderer`'s lines about one update step: the image's signature, the link,
/// what the device reported, the activation. Pure text from the engine's summaries, kept apart
/// from the renderer's drawing state.
enum UpdateLineWords {
    /// What was checked of an image whose signature was not: an encrypted image's hash covers the
    /// plaintext, so only the device checks either (the warning that follows says so).
    static func unsignedWords(_ summary: ImageSummary, keyGiven: Bool) -> String {
        (summary.hashChecked ? "SHA-256 ok, " : "SHA-256 not checked (encrypted), ")
            + (!summary.isSigned ? "not signed" : keyGiven ? "signature not checked" : "signature not checked (no --key)")
    }

    /// A checked signature; an encrypted image's covers the plaintext's hash, which the device checks.
    static func signatureWords(_ algorithm: String, _ summary: ImageSummary) -> String {
        "\(algorithm) signature ok" + (summary.hashChecked ? "" : " over the plaintext's hash (the device checks that hash)")
    }

    /// `…:EE:FF, MTU 498, 2M PHY, interval 7.5 ms, window 3`.
    static func linkDescription(_ summary: ConnectionSummary) -> String {
        // A serial line has no ATT MTU: its link only models one, as the largest packet its
        // framing could carry (`dfu info` shows the line instead).
        var parts = [summary.device]
        if !summary.identity.hasPrefix("serial:") { parts.append("MTU \(summary.attMTU)") }
        if let phy = summary.phy { parts.append("\(phy) PHY") }
        if let interval = summary.connectionInterval { parts.append("interval " + HumanUnits.milliseconds(interval)) }
        parts.append("window \(summary.window)")
        return parts.joined(separator: ", ")
    }

    static func linkDetails(_ summary: ConnectionSummary) -> String {
        "link: writes of up to \(summary.maxWrite) bytes"
            + (summary.ceiling.map { ", ceiling " + HumanUnits.rate($0) } ?? ", no modelled ceiling")
    }

    static func deviceDescription(_ facts: DeviceFacts) -> String {
        var parts: [String] = []
        if let version = facts.statedVersion { parts.append("running \(version)") }
        if let level = facts.batteryLevel { parts.append("battery \(level) %") }
        if let revision = facts.firmwareRevision { parts.append("firmware revision '\(revision)'") }
        if let slot = facts.slotSize { parts.append("slot \(HumanUnits.bytes(slot))") }
        if let size = facts.bufferSize, let count = facts.bufferCount { parts.append("buffers \(count) × \(size) B") }
        if let mode = facts.bootloaderMode { parts.append("bootloader \(mode)") }
        return "device: " + (parts.isEmpty ? "reported nothing" : parts.joined(separator: ", "))
    }

    static func activationDescription(_ mode: ActivationMode) -> String {
        switch mode {
        case .testConfirm, .testOnly: return "marked for test"
        case .confirmOnly: return "marked confirmed (permanent: no rollback)"
        case .uploadOnly: return "upload only: the device keeps running its current image"
        }
    }
}
