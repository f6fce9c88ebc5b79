/// `org.freedesktop.DBus.Introspectable.Introspect` for what a connection exports, so `busctl
/// introspect`, `busctl tree` and `gdbus introspect --recurse` can walk it. The XML follows the
/// D-Bus specification's introspection format (introspect.dtd): one `<node>` with the object's
/// interfaces (the standard ones it answers included) and one empty `<node name="…"/>` per child.
/// Paths between the root and an exported object (`/`, `/org`) answer too, with children only, as
/// libdbus and GDBus do, or a tree walk could not get down to the objects.
enum DBusIntrospection {
    static let interface = "org.freedesktop.DBus.Introspectable"

    /// The XML for `path`; nil when nothing is exported at or below it (the call is then not ours).
    static func xml(path: String, objects: [String: DBusExportedObject], managerRoots: Set<String>) -> String? {
        let object = objects[path]
        let isManager = managerRoots.contains(path)
        let children = childNames(of: path, among: Set(objects.keys).union(managerRoots))
        guard object != nil || isManager || !children.isEmpty else { return nil }
        var lines = [
            #"<!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN""#,
            #" "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">"#,
            "<node>",
        ]
        lines += standardInterface(interface, methods: [("Introspect", "", "s")], signals: [])
        if object != nil {
            lines += standardInterface(DBusStandardInterface.properties,
                                       methods: [("Get", "ss", "v"), ("GetAll", "s", "a{sv}"), ("Set", "ssv", "")],
                                       signals: [("PropertiesChanged", "sa{sv}as")])
        }
        if isManager {
            lines += standardInterface(DBusStandardInterface.objectManager,
                                       methods: [("GetManagedObjects", "", "a{oa{sa{sv}}}")],
                                       signals: [("InterfacesAdded", "oa{sa{sv}}"), ("InterfacesRemoved", "oas")])
        }
        let interfaces = object?.interfaces.values.sorted { $0.name < $1.name } ?? []
        for exported in interfaces where !isStandard(exported.name) {
            lines += describe(exported)
        }
        lines += children.map { "  <node name=\"\(escaped($0))\"/>" }
        lines.append("</node>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The first path component below `path` of every path in `paths` under it, sorted.
    static func childNames(of path: String, among paths: Set<String>) -> [String] {
        let prefix = path == "/" ? "/" : path + "/"
        let names = paths.compactMap { candidate -> String? in
            guard candidate != path, candidate.hasPrefix(prefix) else { return nil }
            return candidate.dropFirst(prefix.count).split(separator: "/").first.map(String.init)
        }
        return Set(names).sorted()
    }

    /// A signature's single complete types ("sa{sv}as" → ["s", "a{sv}", "as"]); nil when malformed.
    static func completeTypes(_ signature: String) -> [String]? {
        let codes = Array(signature.utf8)
        var types: [String] = []
        var index = 0
        while index < codes.count {
            guard let end = endOfCompleteType(codes, from: index) else { return nil }
            types.append(String(decoding: codes[index ..< end], as: UTF8.self))
            index = end
        }
        return types
    }

    /// Where the complete type starting at `start` ends (exclusive); nil when malformed.
    private static func endOfCompleteType(_ codes: [UInt8], from start: Int) -> Int? {
        guard start < codes.count else { return nil }
        switch codes[start] {
        case UInt8(ascii: "a"):
            return endOfCompleteType(codes, from: start + 1)
        case UInt8(ascii: "("), UInt8(ascii: "{"):
            let close = codes[start] == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "}")
            var index = start + 1
            while index < codes.count, codes[index] != close {
                guard let end = endOfCompleteType(codes, from: index) else { return nil }
                index = end
            }
            return index < codes.count && index > start + 1 ? index + 1 : nil
        case let code where basicCodes.contains(code):
            return start + 1
        default:
            return nil
        }
    }

    private static let basicCodes = Set("ybnqiuxtdsoghv".utf8)

    private static func isStandard(_ name: String) -> Bool {
        [interface, DBusStandardInterface.properties, DBusStandardInterface.objectManager].contains(name)
    }

    private static func standardInterface(_ name: String, methods: [(String, String, String)],
                                          signals: [(String, String)]) -> [String] {
        var lines = ["  <interface name=\"\(name)\">"]
        for (method, arguments, reply) in methods {
            lines += member("method", method, arguments: arguments, reply: reply)
        }
        for (signal, arguments) in signals {
            lines += member("signal", signal, arguments: arguments, reply: nil)
        }
        lines.append("  </interface>")
        return lines
    }

    private static func describe(_ exported: DBusExportedInterface) -> [String] {
        var lines = ["  <interface name=\"\(escaped(exported.name))\">"]
        for name in exported.methods.keys.sorted() {
            let signature = exported.signatures[name]
            lines += member("method", name, arguments: signature?.arguments ?? "", reply: signature?.reply ?? "")
        }
        for name in exported.properties.keys.sorted() {
            let type = exported.properties[name]?.signature ?? "v"
            lines.append("    <property name=\"\(escaped(name))\" type=\"\(escaped(type))\" access=\"read\"/>")
        }
        lines.append("  </interface>")
        return lines
    }

    /// A method (in and out arguments) or a signal (`reply` nil: its arguments carry no direction).
    private static func member(_ kind: String, _ name: String, arguments: String, reply: String?) -> [String] {
        let inputs = completeTypes(arguments) ?? []
        let outputs = reply.flatMap(completeTypes) ?? []
        guard !inputs.isEmpty || !outputs.isEmpty else { return ["    <\(kind) name=\"\(escaped(name))\"/>"] }
        var lines = ["    <\(kind) name=\"\(escaped(name))\">"]
        let direction = reply == nil ? "" : " direction=\"in\""
        lines += inputs.map { "      <arg type=\"\(escaped($0))\"\(direction)/>" }
        lines += outputs.map { "      <arg type=\"\(escaped($0))\" direction=\"out\"/>" }
        lines.append("    </\(kind)>")
        return lines
    }

    private static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
