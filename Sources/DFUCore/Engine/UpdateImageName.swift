/// Which image of an update with several an event is about: its MCUboot image index and, when the
/// update file says so, the core it runs on (an nRF5340's application or network core).
public struct UpdateImageName: Sendable, Equatable, CustomStringConvertible {
    public var index: Int
    /// `application core`, `network core`; nil when the file does not tell.
    public var role: String?

    public init(index: Int, role: String? = nil) {
        self.index = index
        self.role = role
    }

    /// `image 1 (network core)`.
    public var description: String { "image \(index)" + (role.map { " (\($0))" } ?? "") }
}
