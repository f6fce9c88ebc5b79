/// The fields of one protobuf message, grouped by number, with typed accessors that refuse a known field
/// of the wrong wire type or a singular field given twice. (Protobuf would let the last copy win; a
/// firmware package never repeats one, and for the signed InitCommand two copies would leave it open
/// which bytes were signed.) Unknown fields of wire types 0, 1, 2 and 5 are skipped.
struct ProtobufMessage {
    let bytes: [UInt8]
    /// Names the message in reasons: "Packet", "InitCommand".
    let name: String
    private var fields: [UInt64: [ProtobufReader.Field]] = [:]

    init(_ bytes: [UInt8], range: Range<Int>? = nil, name: String) throws(InitPacketReason) {
        self.bytes = bytes
        self.name = name
        var reader = ProtobufReader(bytes, range: range)
        do {
            while let field = try reader.next() { fields[field.number, default: []].append(field) }
        } catch {
            throw InitPacketReason("\(name): \(error.description)")
        }
    }

    func varint(_ number: UInt64, _ field: String) throws(InitPacketReason) -> UInt64? {
        guard let value = try single(number, field) else { return nil }
        guard case .varint(let v) = value else { throw wrongType(field) }
        return v
    }

    func uint32(_ number: UInt64, _ field: String) throws(InitPacketReason) -> UInt32? {
        guard let value = try varint(number, field) else { return nil }
        guard let narrow = UInt32(exactly: value) else { throw InitPacketReason("\(name).\(field) = \(value) does not fit uint32") }
        return narrow
    }

    func range(_ number: UInt64, _ field: String) throws(InitPacketReason) -> Range<Int>? {
        guard let value = try single(number, field) else { return nil }
        guard case .lengthDelimited(let r) = value else { throw wrongType(field) }
        return r
    }

    /// A `repeated uint32`, packed or not (parsers must accept both).
    func repeatedUInt32(_ number: UInt64, _ field: String) throws(InitPacketReason) -> [UInt32] {
        var values: [UInt64] = []
        for entry in fields[number] ?? [] {
            switch entry.value {
            case .varint(let v): values.append(v)
            case .lengthDelimited(let r):
                do { values += try ProtobufReader.packedVarints(bytes, range: r) } catch {
                    throw InitPacketReason("\(name).\(field): \(error.description)")
                }
            default: throw wrongType(field)
            }
        }
        return try values.map { (v) throws(InitPacketReason) -> UInt32 in
            guard let narrow = UInt32(exactly: v) else { throw InitPacketReason("\(name).\(field) = \(v) does not fit uint32") }
            return narrow
        }
    }

    /// Every copy of a repeated message field.
    func repeatedRanges(_ number: UInt64, _ field: String) throws(InitPacketReason) -> [Range<Int>] {
        try (fields[number] ?? []).map { (entry) throws(InitPacketReason) -> Range<Int> in
            guard case .lengthDelimited(let r) = entry.value else { throw wrongType(field) }
            return r
        }
    }

    private func single(_ number: UInt64, _ field: String) throws(InitPacketReason) -> ProtobufReader.Field.Value? {
        guard let entries = fields[number] else { return nil }
        guard entries.count == 1, let only = entries.first else {
            throw InitPacketReason("\(name).\(field) appears \(entries.count) times")
        }
        return only.value
    }

    private func wrongType(_ field: String) -> InitPacketReason {
        InitPacketReason("\(name).\(field) has the wrong wire type")
    }
}

/// Why an init packet does not decode; becomes `NordicPackageError.initPacketInvalid` with the file name.
struct InitPacketReason: Error {
    let text: String
    init(_ text: String) { self.text = text }
}
