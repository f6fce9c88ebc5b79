/// A group of arguments listed in help under a title of its own, as swift-argument-parser's
/// `@OptionGroup(title:)`:
///
///     @OptionGroup(title: "DEVICE OPTIONS")
///     var target = DeviceOptions()
///
/// A group held in a plain stored property (`var common = CommonOptions()`) is listed with the
/// command's own options under "OPTIONS". Parsing is the same either way; only help differs. A plain
/// group nested in a titled one is listed under that title.
@propertyWrapper
public struct OptionGroup<Group: ParsableArguments>: Sendable, Decodable, GroupDeclaring {
    public var wrappedValue: Group
    /// The help section's title; nil once parsed (help reads declarations only).
    let title: String?

    public init(wrappedValue: Group, title: String) {
        self.wrappedValue = wrappedValue
        self.title = title
    }

    public init(from decoder: any Decoder) throws {
        wrappedValue = try Group(from: decoder)
        title = nil
    }

    var declaredGroup: any ParsableArguments { wrappedValue }
}

/// Implemented by `OptionGroup`: the group it wraps and the title help lists it under.
protocol GroupDeclaring {
    var declaredGroup: any ParsableArguments { get }
    var title: String? { get }
}
