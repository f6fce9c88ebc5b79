/// How sure a protocol is that an update file is one of its kinds (`ProtocolEntry.recognise`).
/// The strongest claim wins, so a protocol need not know the others' files: a zip with an nRF
/// Connect SDK manifest is SMP's by its content, any other zip Nordic's by its container, and any
/// other file SMP's as the parser of last resort.
struct FileClaim: Sendable, Equatable {
    enum Strength: Int, Sendable, Comparable {
        /// Any file no other protocol claims: its parser says what is wrong with it.
        case lastResort
        /// The container the protocol's files come in (a zip archive).
        case container
        /// The file's own content says it (a manifest, a magic number).
        case content

        static func < (lhs: Strength, rhs: Strength) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    let kind: UpdateFileKind
    let strength: Strength
}
