import ArgumentParsing
import BlueZTransport
import Transport

/// One device of a `dfu batch` plan and the `dfu flash` it stands for: the command line's
/// options for every row, then this row's cells, which win (the parser keeps an option's last
/// value). A passkey cell becomes `--passkey` in memory only; it is never printed or journaled.
struct BatchRow: Equatable, Sendable {
    /// A plan column dfu does not read (a serial number, notes): kept and echoed in the report.
    struct Extra: Equatable, Sendable {
        var name: String
        var value: String
    }

    var line: Int
    /// What `--device` gets: the plan's cell, with the paths inside a `sim:` spec made absolute
    /// (`BatchSimPaths`).
    var device: String
    /// The device as the plan wrote it: how output and the report name it.
    var writtenDevice: String
    /// Absolute paths (`BatchPlan` resolves them against the plan's directory).
    var image: String
    var key: String?
    var expectVersion: String?
    var mode: String?
    var minBattery: String?
    var passkey: String?
    /// The row's other columns, in the plan's order.
    var extras: [Extra]

    init(line: Int, device: String, writtenDevice: String? = nil, image: String, key: String? = nil,
         expectVersion: String? = nil, mode: String? = nil, minBattery: String? = nil, passkey: String? = nil,
         extras: [Extra] = []) {
        self.line = line
        self.device = device
        self.writtenDevice = writtenDevice ?? device
        self.image = image
        self.key = key
        self.expectVersion = expectVersion
        self.mode = mode
        self.minBattery = minBattery
        self.passkey = passkey
        self.extras = extras
    }

    /// The `dfu flash` words for this row: `shared` (the batch's own options for every row) and
    /// `adapter` (the one the scheduler gave a Bluetooth row) first, the row's cells after.
    func flashArguments(shared: [String], adapter: String?) -> [String] {
        var words = [image, "--device", device] + shared
        if let adapter { words += ["--adapter", adapter] }
        if let key { words += ["--key", key] }
        if let expectVersion { words += ["--expect-version", expectVersion] }
        if let mode { words += ["--mode", mode] }
        if let minBattery { words += ["--min-battery", minBattery] }
        if let passkey { words += ["--passkey", passkey] }
        return words
    }

    /// The row as a `dfu flash` command, checked as `dfu flash` checks its command line.
    func flashCommand(shared: [String], adapter: String?) throws(UsageError) -> FlashCommand {
        // Checked here so that no message can quote a mistyped passkey.
        if let passkey, Passkey(text: passkey) == nil {
            throw UsageError("line \(line): the passkey must be six digits, 000000 to 999999")
        }
        do {
            return try FlashCommand.parse(flashArguments(shared: shared, adapter: adapter))
        } catch let error as UsageError {
            // Said as the plan's columns, not as options the user never typed.
            throw UsageError("line \(line): \(Self.inPlanTerms(error.message))")
        } catch {
            throw UsageError("line \(line): \(error)")
        }
    }

    /// Whether the device is reached through BlueZ (an address or a name), so it takes an adapter.
    var isBluetooth: Bool {
        guard let spec = try? DeviceSpec(parsing: device) else { return false }
        switch spec {
        case .address, .name: return true
        case .simulator, .udp: return false
        }
    }

    private static func inPlanTerms(_ message: String) -> String {
        message.replacingOccurrences(of: "--passkey", with: "passkey")
            .replacingOccurrences(of: "--expect-version", with: "expect_version")
            .replacingOccurrences(of: "--min-battery", with: "min_battery")
    }
}
