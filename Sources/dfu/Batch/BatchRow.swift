/// One device of a `dfu batch` plan, its cells as the plan wrote them. `request(defaults:adapter:)`
/// makes it the update it stands for (the batch's options, where a cell is empty), checking each
/// cell as what it is. A passkey cell is kept in memory only; it is never printed or journaled.
struct BatchRow: Equatable, Sendable {
    /// A plan column dfu does not read (a serial number, notes): kept and echoed in the report.
    struct Extra: Equatable, Sendable {
        var name: String
        var value: String
    }

    var line: Int
    /// The device: the plan's cell, with the paths inside a `sim:` spec made absolute
    /// (`BatchSimDevice.resolvingPaths`).
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

    /// Whether the device is reached through BlueZ (an address or a name), so it takes an adapter.
    var isBluetooth: Bool {
        (try? DeviceSpec(reading: device))?.isBluetooth ?? false
    }
}
