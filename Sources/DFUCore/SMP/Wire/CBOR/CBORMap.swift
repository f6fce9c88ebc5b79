/// A CBOR map that keeps its entries in wire order.
///
/// Order matters to us: smpclient sends canonically ordered keys and Zephyr sends them in the order
/// its handlers write them, and byte-exact round trips against both need the order kept. Equality is
/// therefore order-sensitive. Lookups are linear, which is faster than hashing for the handful of
/// keys an SMP map carries; the decoder's item limit bounds the worst case.
public struct CBORMap: Sendable, Hashable {
    public struct Entry: Sendable, Hashable {
        public var key: CBORValue
        public var value: CBORValue

        public init(key: CBORValue, value: CBORValue) {
            self.key = key
            self.value = value
        }
    }

    public var entries: [Entry]

    public init(_ entries: [Entry] = []) {
        self.entries = entries
    }

    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }

    /// The value of the first entry whose key is `key`. Setting replaces that entry's value in
    /// place (keeping its position), appends a new entry, or removes the entry when set to nil.
    public subscript(key: CBORValue) -> CBORValue? {
        get { entries.first { $0.key == key }?.value }
        set {
            let index = entries.firstIndex { $0.key == key }
            switch (index, newValue) {
            case (let i?, let v?): entries[i].value = v
            case (let i?, nil): entries.remove(at: i)
            case (nil, let v?): entries.append(Entry(key: key, value: v))
            case (nil, nil): break
            }
        }
    }

    /// Text keys are what SMP uses; this spares callers writing `.text("off")`.
    public subscript(key: String) -> CBORValue? {
        get { self[.text(key)] }
        set { self[.text(key)] = newValue }
    }

    /// Appends without looking for an existing key: for builders that know their keys are new.
    public mutating func append(_ key: String, _ value: CBORValue) {
        entries.append(Entry(key: .text(key), value: value))
    }

    /// Appends only when `value` is present, for the many optional SMP fields.
    public mutating func append(_ key: String, ifPresent value: CBORValue?) {
        if let value { append(key, value) }
    }
}

extension CBORMap: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (CBORValue, CBORValue)...) {
        self.init(elements.map { Entry(key: $0.0, value: $0.1) })
    }
}

extension CBORMap: CustomStringConvertible {
    public var description: String {
        "{" + entries.map { "\($0.key.description): \($0.value.description)" }.joined(separator: ", ") + "}"
    }
}
