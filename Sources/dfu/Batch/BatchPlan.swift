import ArgumentParsing
import Foundation

/// What `dfu batch PLAN` updates: one row per device, from CSV with a header row or from JSON lines
/// with the same keys (told by the first character: `{` is JSON). Columns: `device` and `image`
/// (required), `key`, `expect_version`, `mode`, `min_battery`, `passkey`; an empty cell (or JSON
/// null) leaves the command line's value. Any other column (a serial number, notes) is kept as the
/// row's extra and echoed in the report. Relative paths are taken from the plan's own directory,
/// so a plan and its images can move together. Each row is made into its request, every cell
/// checked, before anything runs (`BatchRow.request(defaults:adapter:)`).
struct BatchPlan: Equatable {
    static let columns = ["device", "image", "key", "expect_version", "mode", "min_battery", "passkey"]

    var rows: [BatchRow]
    /// Extra columns whose name is close to one dfu reads (`min_batery`): kept, but probably a typo.
    var warnings: [String] = []

    /// Parses `text`, the plan file at `path` (for its directory and for messages).
    static func parse(_ text: String, path: String) throws(UsageError) -> BatchPlan {
        let directory = Self.directory(of: path)
        let trimmed = text.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{FEFF}" }
        let table: Table
        if trimmed.first == "{" {
            table = try jsonLines(text, path: path)
        } else {
            table = try csv(text, path: path)
        }
        var rows: [BatchRow] = []
        var seen: [String: Int] = [:]
        for (line, values, extras) in table.rows {
            func fail(_ reason: String) -> UsageError { UsageError("\(path) line \(line): \(reason)") }
            guard let device = values["device"], !device.isEmpty else { throw fail("no device") }
            guard let image = values["image"], !image.isEmpty else { throw fail("no image") }
            // The same device however it is spelled (an address in either case).
            let identity = (try? DeviceSpec(parsing: device))?.description ?? device
            if let earlier = seen[identity] {
                throw fail("device \(device) is already on line \(earlier); a device is updated once per plan")
            }
            seen[identity] = line
            rows.append(BatchRow(line: line, device: BatchSimDevice.resolvingPaths(device, in: directory), writtenDevice: device,
                                 image: resolve(image, in: directory),
                                 key: values["key"].map { resolve($0, in: directory) },
                                 expectVersion: values["expect_version"], mode: values["mode"],
                                 minBattery: values["min_battery"], passkey: values["passkey"], extras: extras))
        }
        guard !rows.isEmpty else { throw UsageError("\(path) lists no devices (a header row, then one row per device)") }
        return BatchPlan(rows: rows, warnings: table.warnings)
    }

    /// A plan's cells: per row its line, the columns dfu reads (non-empty ones) and the others.
    private struct Table {
        var rows: [(line: Int, values: [String: String], extras: [BatchRow.Extra])] = []
        var warnings: [String] = []
        /// Extra columns already warned about (a JSON plan repeats its keys on every line).
        var warned: Set<String> = []
    }

    /// The column dfu reads that `name` spells (in any case, with `-` or a space for `_`), or nil
    /// for an extra column; a warning when an extra one looks like a mistyped column.
    private static func column(_ name: String, path: String, line: Int, table: inout Table) throws(UsageError) -> String? {
        let spelled = name.lowercased().replacingOccurrences(of: "-", with: "_").replacingOccurrences(of: " ", with: "_")
        if columns.contains(spelled) { return spelled }
        guard !name.isEmpty else {
            throw UsageError("\(path) line \(line): a column has no name; name it or remove it")
        }
        // Kept (a serial number, notes), but a typo in a column dfu reads would silently drop a
        // setting, so say which one it resembles.
        if let near = closestName(to: spelled, among: columns), table.warned.insert(name).inserted {
            table.warnings.append("\(path) line \(line): column '\(name)' is not one dfu reads (did you mean '\(near)'?); "
                            + "it is kept as an extra column for the report")
        }
        return nil
    }

    private static func csv(_ text: String, path: String) throws(UsageError) -> Table {
        let records: [CSVTable.Record]
        do throws(CSVTable.ParseError) { records = try CSVTable.parse(text) } catch {
            throw UsageError("\(path) line \(error.line): \(error.reason)")
        }
        guard let header = records.first else { return Table() }
        var table = Table()
        var names: [String?] = []
        for name in header.fields {
            names.append(try column(name, path: path, line: header.line, table: &table))
        }
        let spelled = zip(names, header.fields).map { $0 ?? $1 }
        if let repeated = spelled.first(where: { name in spelled.filter { $0 == name }.count > 1 }) {
            throw UsageError("\(path) line \(header.line): column '\(repeated)' appears twice")
        }
        for record in records.dropFirst() {
            guard record.fields.count <= names.count else {
                throw UsageError("\(path) line \(record.line): \(record.fields.count) fields, but the header names \(names.count)")
            }
            var values: [String: String] = [:]
            var extras: [BatchRow.Extra] = []
            for (index, (name, title)) in zip(names, header.fields).enumerated() {
                let value = index < record.fields.count ? record.fields[index] : ""
                if let name {
                    if !value.isEmpty { values[name] = value }
                } else {
                    extras.append(BatchRow.Extra(name: title, value: value))
                }
            }
            table.rows.append((record.line, values, extras))
        }
        return table
    }

    private static func jsonLines(_ text: String, path: String) throws(UsageError) -> Table {
        var table = Table()
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let content = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if content.isEmpty || content.hasPrefix("#") { continue }
            guard let object = try? JSONDecoder().decode([String: PlanValue].self, from: Data(content.utf8)) else {
                throw UsageError("\(path) line \(number): not a JSON object of strings and numbers")
            }
            var values: [String: String] = [:]
            var extras: [BatchRow.Extra] = []
            // A JSON object's keys have no order once decoded: extras go by name.
            for (key, value) in object.sorted(by: { $0.key < $1.key }) {
                guard value.isScalar else {
                    throw UsageError("\(path) line \(number): '\(key)' must be a string or a number")
                }
                if let name = try column(key, path: path, line: number, table: &table) {
                    guard values[name] == nil else {
                        throw UsageError("\(path) line \(number): '\(name)' is given twice")
                    }
                    if let text = value.text, !text.isEmpty { values[name] = text }
                } else if let text = value.text {
                    extras.append(BatchRow.Extra(name: key, value: text))
                }
            }
            table.rows.append((number, values, extras))
        }
        return table
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return FileManager.default.currentDirectoryPath }
        if slash == path.startIndex { return "" }  // a plan in "/": its files are "/" + name
        let directory = String(path[..<slash])
        if directory.hasPrefix("/") { return directory }
        return FileManager.default.currentDirectoryPath + "/" + directory
    }

    private static func resolve(_ path: String, in directory: String) -> String {
        path.hasPrefix("/") ? path : directory + "/" + path
    }
}

/// A JSON plan's value: a string, a number (`"min_battery": 40`) or null (the command line's value).
/// Anything else (a boolean, an array) is kept as not scalar, so the message can name its key.
private struct PlanValue: Decodable {
    var text: String?
    var isScalar = true

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            text = nil
        } else if (try? container.decode(Bool.self)) != nil {
            isScalar = false
        } else if let integer = try? container.decode(Int.self) {
            text = String(integer)
        } else if let number = try? container.decode(Double.self) {
            text = String(number)
        } else if let string = try? container.decode(String.self) {
            text = string
        } else {
            isScalar = false
        }
    }
}
