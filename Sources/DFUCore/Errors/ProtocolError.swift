/// A protocol's own error type (a package parser's, a client's, a transfer's), carried by
/// `DFUError` and `FailureCause` without them naming it: a protocol adds its errors in its own
/// folder, as cases of its own types.
public protocol ProtocolErrorValue: Error, Sendable, CustomStringConvertible {
    /// Whether `other` is the same error (for `DFUError`'s and `FailureCause`'s equality).
    func isEqual(to other: any ProtocolErrorValue) -> Bool
}

extension ProtocolErrorValue where Self: Equatable {
    public func isEqual(to other: any ProtocolErrorValue) -> Bool { (other as? Self) == self }
}

/// One protocol's error as it is, compared by value. Read the typed error back with
/// `value as? TheProtocolsError`, or compare with the protocol's constructor
/// (`cause == .smpRequest(.linkLost)`).
public struct ProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    public let value: any ProtocolErrorValue

    public init(_ value: some ProtocolErrorValue) { self.value = value }

    public var description: String { value.description }

    public static func == (lhs: ProtocolError, rhs: ProtocolError) -> Bool { lhs.value.isEqual(to: rhs.value) }
}

extension FailureCause {
    /// The protocol's own error when it is of type `type` (`cause.protocolError(as: SMPClientError.self)`).
    public func protocolError<Value: ProtocolErrorValue>(as type: Value.Type) -> Value? {
        guard case .protocolFailure(let error) = self else { return nil }
        return error.value as? Value
    }
}
