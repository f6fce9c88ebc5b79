/// What a shell may offer for an argument's value, read from its declaration so that a new option
/// completes without anyone touching the completion scripts.
enum ValueCompletion: Equatable, Sendable {
    /// Nothing to offer (a number, a name, an address).
    case none
    /// One of these words.
    case choices([String])
    /// A path.
    case files

    /// The value names that mean a file (`IMAGE`, `FILE`), besides those with an extension (`PUB.pem`).
    private static let fileValueNames: Set<String> = ["FILE", "IMAGE", "PATH"]

    /// From, first match wins: the value type's fixed set (`--mode`); a value name that lists literal
    /// words (`on|off`, `1M|2M`: no placeholder among them, see `isPlaceholder`); a value name that
    /// names a file. A flag takes no value.
    init(_ definition: ArgumentDefinition) {
        let valueName: String
        switch definition.kind {
        case .flag: self = .none; return
        case .option(let name), .positional(let name): valueName = name
        }
        if !definition.allValues.isEmpty {
            self = .choices(definition.allValues)
            return
        }
        let alternatives = valueName.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        if alternatives.count > 1, !alternatives.contains(where: Self.isPlaceholder) {
            self = .choices(alternatives)
        } else if Self.fileValueNames.contains(valueName) || Self.namesFileWithExtension(valueName) {
            self = .files
        } else {
            self = .none
        }
    }

    /// Help writes placeholders in capitals (`SECONDS`, `hciN`, `udp:HOST:PORT`); a capital after a
    /// digit is a unit (`2M`), and an empty alternative is no word to offer.
    private static func isPlaceholder(_ alternative: String) -> Bool {
        if alternative.isEmpty { return true }
        var previous: Character?
        for character in alternative {
            if character.isUppercase && !(previous?.isNumber ?? false) { return true }
            if !(character.isLetter || character.isNumber || character == "-") { return true }
            previous = character
        }
        return false
    }

    /// `PUB.pem`, `PRIV.pem`: a capitalised placeholder with a lowercase extension.
    private static func namesFileWithExtension(_ valueName: String) -> Bool {
        let parts = valueName.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        return !parts[0].isEmpty && parts[0].allSatisfy(\.isUppercase)
            && !parts[1].isEmpty && parts[1].allSatisfy { $0.isLowercase || $0.isNumber }
    }
}
