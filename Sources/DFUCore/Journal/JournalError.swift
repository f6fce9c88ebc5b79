/// A journal that could not be written or removed. `dfu flash` warns and goes on (the device, not
/// the journal, holds the progress); `dfu resume` reports it.
public enum JournalError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotWrite(let path, let reason): return "cannot write the update journal \(path): \(reason)"
        }
    }
}
