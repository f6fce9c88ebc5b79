/// A command type whose declarations cannot work (a stored property that is no declaration, an
/// option name declared twice). A bug in the tool that declares it, found by any `--help`.
public struct DeclarationError: Error, Sendable, CustomStringConvertible {
    public var description: String
}
