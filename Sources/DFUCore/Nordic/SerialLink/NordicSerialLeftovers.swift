import Synchronization

/// Tells the answers to a link's own Control Point requests from leftovers: answers to requests an
/// earlier run wrote that the bootloader read only after that run had ended (a `dfu` killed
/// mid-object leaves Write Objects, a Calculate Checksum and an Execute on the line, and the next
/// run may open the port, and flush it, before the bootloader has read them). The bootloader reads
/// and answers in order, so every leftover comes before the answer to the link's first ping, and so
/// before its first Control Point request: until that request is written, a Control Point answer
/// is a leftover. (SMP's client drops its leftover replies the same way, `dropsLeftoverReplies`.)
final class NordicSerialLeftovers: Sendable {
    private let asked = Mutex(false)

    /// The link is about to write a Control Point request: answers from now on may be its own.
    func controlPointAsked() {
        asked.withLock { $0 = true }
    }

    /// Whether a Control Point answer that arrives now answers an earlier run's request.
    var isLeftover: Bool { !asked.withLock { $0 } }
}
