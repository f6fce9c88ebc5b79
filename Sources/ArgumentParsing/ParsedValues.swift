/// The parser's result: one value per declared argument (given or default), keyed by
/// `ArgumentDefinition.key`. `ArgumentValueDecoder` hands them to the property wrappers.
struct ParsedValues: Sendable {
    private var storage: [String: any Sendable] = [:]

    subscript(key: String) -> (any Sendable)? {
        get { storage[key] }
        set { storage[key] = newValue }
    }
}
