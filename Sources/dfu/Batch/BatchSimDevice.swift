import DeviceSim

/// A plan row's virtual device (`sim:…`): the files its options name (`key=`, `enc_key=`) are
/// read from the plan's directory, like the row's image and key columns, and the whole device is
/// checked with the plan, so a missing key file refuses the plan before any device runs instead
/// of failing its row when its turn comes.
enum BatchSimDevice {
    /// The options whose value is a file (`SimOptions`), in their normalized spelling.
    static let pathOptions: Set<String> = ["key", "enc_key"]

    /// `device` with every relative path in its options made absolute in `directory`; any other
    /// device as it is.
    static func resolvingPaths(_ device: String, in directory: String) -> String {
        guard case .simulator(let options)? = try? DeviceSpec(parsing: device), !options.isEmpty else { return device }
        let items = options.split(separator: ",", omittingEmptySubsequences: false).map { item -> String in
            guard let equals = item.firstIndex(of: "=") else { return String(item) }
            // SimOptions reads `enc-key` and `ENC_KEY` as `enc_key` too.
            let name = item[..<equals].lowercased().replacingOccurrences(of: "-", with: "_")
            let value = item[item.index(after: equals)...]
            guard pathOptions.contains(name), !value.isEmpty, !value.hasPrefix("/") else { return String(item) }
            return String(item[..<equals]) + "=" + directory + "/" + String(value)
        }
        return "sim:" + items.joined(separator: ",")
    }

    /// Builds the configuration of the virtual device `row` names (its options, its key files),
    /// without serving it; nothing for a device that is not virtual.
    static func check(_ row: BatchRow) throws(BatchRowProblem) {
        guard case .simulator(let text)? = try? DeviceSpec(reading: row.device) else { return }
        do throws(SimOptionsError) {
            let options = try SimOptions.parse(text.isEmpty ? "sim" : "sim:" + text)
            switch options.simProtocol {
            case .smp: _ = try options.deviceConfiguration()
            case .nordic: _ = try options.nordicDeviceConfiguration()
            }
        } catch {
            throw BatchRowProblem(line: row.line, column: "device", reason: "invalid device '\(row.writtenDevice)': \(error)")
        }
    }
}
