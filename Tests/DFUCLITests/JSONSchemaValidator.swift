import Foundation

/// The part of JSON Schema (draft 2020-12) that `docs/json-events.schema.json` uses: `type`,
/// `properties`, `required`, `additionalProperties`, `enum`, `const`, `items`, `oneOf`, `anyOf`,
/// `$ref` to `#/$defs/…`, `minimum` and `pattern`. A schema that uses any other keyword is refused
/// when loaded, so a keyword added to the file cannot be silently ignored by the test.
struct JSONSchemaValidator: Sendable {
    /// One way an instance breaks the schema, at a JSON Pointer into the instance.
    struct Problem: Sendable, Equatable, CustomStringConvertible {
        var path: String
        var message: String
        /// A `const` of the object's own member that differs: the mark of the wrong `oneOf` branch
        /// (another `event` or `command`), not worth reporting when a closer branch exists.
        var isDiscriminator = false

        var description: String { (path.isEmpty ? "/" : path) + ": " + message }
    }

    struct UnsupportedSchema: Error, CustomStringConvertible {
        var description: String
    }

    static let implemented: Set<String> = ["type", "properties", "required", "additionalProperties", "enum", "const",
                                           "items", "oneOf", "anyOf", "$ref", "minimum", "pattern"]
    /// Keywords that only describe or hold definitions.
    static let annotations: Set<String> = ["$schema", "$id", "$comment", "title", "description", "$defs"]

    let root: JSONNode

    init(schema: JSONNode) throws {
        root = schema
        try Self.checkKeywords(schema, at: "#")
    }

    /// What is wrong with `instance`; empty when it is valid.
    func problems(_ instance: JSONNode) -> [Problem] {
        problems(instance, schema: root, at: "")
    }

    private func problems(_ instance: JSONNode, schema: JSONNode, at path: String) -> [Problem] {
        if case .bool(let allowed) = schema { return allowed ? [] : [Problem(path: path, message: "is not allowed")] }
        var found: [Problem] = []
        if let reference = schema["$ref"]?.stringValue {
            guard let target = resolve(reference) else { return [Problem(path: path, message: "unresolvable $ref \(reference)")] }
            found += problems(instance, schema: target, at: path)
        }
        if let types = schema["type"], !Self.names(types).contains(where: { Self.matches(instance, type: $0) }) {
            return found + [Problem(path: path, message: "is \(instance.typeName), not \(Self.names(types).joined(separator: " or "))")]
        }
        if let constant = schema["const"], !instance.sameValue(as: constant) {
            found.append(Problem(path: path, message: "is \(instance), not \(constant)", isDiscriminator: true))
        }
        if case .array(let allowed)? = schema["enum"], !allowed.contains(where: instance.sameValue) {
            found.append(Problem(path: path, message: "is \(instance), not one of \(JSONNode.array(allowed))"))
        }
        if let minimum = schema["minimum"]?.numericValue, let value = instance.numericValue, value < minimum {
            found.append(Problem(path: path, message: "is \(instance), below the minimum \(minimum)"))
        }
        if let pattern = schema["pattern"]?.stringValue, case .string(let text) = instance {
            do {
                if try Regex(pattern).firstMatch(in: text) == nil {
                    found.append(Problem(path: path, message: "\(instance) does not match \(pattern)"))
                }
            } catch {
                found.append(Problem(path: path, message: "the schema's pattern \(pattern) does not compile: \(error)"))
            }
        }
        if case .object(let members) = instance { found += objectProblems(members, schema: schema, at: path) }
        if case .array(let elements) = instance, let items = schema["items"] {
            for (index, element) in elements.enumerated() { found += problems(element, schema: items, at: path + "/\(index)") }
        }
        if case .array(let branches)? = schema["anyOf"] {
            let each = branches.map { problems(instance, schema: $0, at: path) }
            if !each.contains(where: \.isEmpty) { found += Self.closest(each, path: path, kind: "anyOf") }
        }
        if case .array(let branches)? = schema["oneOf"] {
            let each = branches.map { problems(instance, schema: $0, at: path) }
            let matched = each.filter(\.isEmpty).count
            if matched == 0 { found += Self.closest(each, path: path, kind: "oneOf") }
            if matched > 1 { found.append(Problem(path: path, message: "matches \(matched) oneOf alternatives, not exactly one")) }
        }
        return found
    }

    private func objectProblems(_ members: [String: JSONNode], schema: JSONNode, at path: String) -> [Problem] {
        var found: [Problem] = []
        let properties: [String: JSONNode]
        if case .object(let declared)? = schema["properties"] { properties = declared } else { properties = [:] }
        if case .array(let required)? = schema["required"] {
            for case .string(let key) in required where members[key] == nil {
                found.append(Problem(path: path, message: "lacks the required member \"\(key)\""))
            }
        }
        for key in members.keys.sorted() {
            guard let value = members[key] else { continue }
            let member = path + "/" + key
            if let property = properties[key] {
                // The discriminator mark only holds for the object's own members, not deeper.
                found += problems(value, schema: property, at: member).map { problem in
                    var problem = problem
                    problem.isDiscriminator = problem.isDiscriminator && problem.path == member
                    return problem
                }
            } else if let additional = schema["additionalProperties"] {
                if case .bool(false) = additional {
                    found.append(Problem(path: member, message: "is not a member this object has"))
                } else {
                    found += problems(value, schema: additional, at: member)
                }
            }
        }
        return found
    }

    /// A failed `oneOf`/`anyOf`: the problems of the branches whose discriminators matched (the
    /// line's own event), or just that none matched.
    private static func closest(_ each: [[Problem]], path: String, kind: String) -> [Problem] {
        let near = each.filter { !$0.contains(where: \.isDiscriminator) }
        guard !near.isEmpty else {
            return [Problem(path: path, message: "matches none of the \(each.count) \(kind) alternatives", isDiscriminator: true)]
        }
        return near.flatMap { $0 }
    }

    /// `#/$defs/NAME`, the only form of reference the schema uses.
    private func resolve(_ reference: String) -> JSONNode? {
        let prefix = "#/$defs/"
        guard reference.hasPrefix(prefix) else { return nil }
        return root["$defs"]?[String(reference.dropFirst(prefix.count))]
    }

    private static func names(_ types: JSONNode) -> [String] {
        switch types {
        case .string(let name): return [name]
        case .array(let names): return names.compactMap(\.stringValue)
        default: return []
        }
    }

    private static func matches(_ instance: JSONNode, type: String) -> Bool {
        switch type {
        case "number": return instance.numericValue != nil
        default: return instance.typeName == type
        }
    }

    /// Every subschema uses only keywords this validator implements (or annotations).
    private static func checkKeywords(_ schema: JSONNode, at location: String) throws {
        guard case .object(let members) = schema else {
            if case .bool = schema { return }
            throw UnsupportedSchema(description: "\(location) is not a schema")
        }
        for key in members.keys.sorted() where !implemented.contains(key) && !annotations.contains(key) {
            throw UnsupportedSchema(description: "\(location) uses \"\(key)\", which the test's validator does not implement")
        }
        var children: [(String, JSONNode)] = []
        for key in ["properties", "$defs"] {
            if case .object(let named)? = members[key] { children += named.map { ("\(location)/\(key)/\($0.key)", $0.value) } }
        }
        for key in ["oneOf", "anyOf"] {
            if case .array(let branches)? = members[key] { children += branches.enumerated().map { ("\(location)/\(key)/\($0.offset)", $0.element) } }
        }
        for key in ["items", "additionalProperties"] {
            if let child = members[key] { children.append(("\(location)/\(key)", child)) }
        }
        for (childLocation, child) in children { try checkKeywords(child, at: childLocation) }
    }
}
