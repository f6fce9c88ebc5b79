import Foundation

/// What `dfu batch PLAN` updates: one row per device, from CSV with a header row or from JSON lines
/// with the same keys (told by the first character: `{` is JSON). Columns: `device` and `image`
/// (required), `key`, `expect_version`, `mode`, `min_battery`, `passkey`; an empty cell (or JSON
/// null) leaves the command line's value. Relative paths are taken from the plan's own directory,
/// so a plan and its images can move together. Each row is checked as `dfu flash` checks its
/// command line before anything runs (`BatchRow.flashCommand`).
struct BatchPlan: Equatable {
    static let columns = ["device", "image", "key", "expect_version", "mode", "min_battery", "passkey"]

    var rows: [BatchRow]

    /// Parses `text`, the plan file at `path` (for its directory and for messages).
    static func parse(_ text: String, path: String) throws(UsageError) -> BatchPlan {
        let directory = Self.directory(of: path)
        let trimmed = text.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{FEFF}" }
        let cells: [(line: Int, values: [String: String])]
        if trimmed.first == "{" {
            cells = try jsonLines(text, path: path)
        } else {
            cells = try csv(text, path: path)
        }
        var rows: [BatchRow] = []
        var seen: [String: Int] = [:]
        for (line, values) in cells {
            func fail(_ reason: String) -> UsageError { UsageError("\(path) line \(line): \(reason)") }
            guard let device = values["device"], !device.isEmpty else { throw fail("no device") }
            guard let image = values["image"], !image.isEmpty else { throw fail("no image") }
            if let earlier = seen[device] {
                throw fail("device \(device) is already on line \(earlier); a device is updated once per plan")
            }
            seen[device] = line
            rows.append(BatchRow(line: line, device: device, image: resolve(image, in: directory),
                                 key: values["key"].map { resolve($0, in: directory) },
                                 expectVersion: values["expect_version"], mode: values["mode"],
                                 minBattery: values["min_battery"], passkey: values["passkey"]))
        }
        guard !rows.isEmpty else { throw UsageError("\(path) lists no devices (a header row, then one row per device)") }
        return BatchPlan(rows: rows)
    }

    private static func csv(_ text: String, path: String) throws(UsageError) -> [(line: Int, values: [String: String])] {
        let records: [CSVTable.Record]
        do throws(CSVTable.ParseError) { records = try CSVTable.parse(text) } catch {
            throw UsageError("\(path) line \(error.line): \(error.reason)")
        }
        guard let header = records.first else { return [] }
        let names = header.fields.map { $0.lowercased() }
        for name in names where !columns.contains(name) {
            throw UsageError("\(path) line \(header.line): unknown column '\(name)'; columns are \(columns.joined(separator: ", "))")
        }
        if let repeated = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
            throw UsageError("\(path) line \(header.line): column '\(repeated)' appears twice")
        }
        return try records.dropFirst().map { record throws(UsageError) in
            guard record.fields.count <= names.count else {
                throw UsageError("\(path) line \(record.line): \(record.fields.count) fields, but the header names \(names.count)")
            }
            var values: [String: String] = [:]
            for (name, value) in zip(names, record.fields) where !value.isEmpty { values[name] = value }
            return (record.line, values)
        }
    }

    private static func jsonLines(_ text: String, path: String) throws(UsageError) -> [(line: Int, values: [String: String])] {
        var cells: [(line: Int, values: [String: String])] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let content = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if content.isEmpty || content.hasPrefix("#") { continue }
            guard let object = try? JSONDecoder().decode([String: PlanValue].self, from: Data(content.utf8)) else {
                throw UsageError("\(path) line \(number): not a JSON object of strings and numbers")
            }
            var values: [String: String] = [:]
            for (key, value) in object {
                guard columns.contains(key) else {
                    throw UsageError("\(path) line \(number): unknown key '\(key)'; keys are \(columns.joined(separator: ", "))")
                }
                guard value.isScalar else {
                    throw UsageError("\(path) line \(number): '\(key)' must be a string or a number")
                }
                if let text = value.text, !text.isEmpty { values[key] = text }
            }
            cells.append((number, values))
        }
        return cells
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return FileManager.default.currentDirectoryPath }
        let directory = String(path[..<slash])
        if directory.hasPrefix("/") { return directory.isEmpty ? "/" : directory }
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
