/// The `AA:BB:CC:DD:EE:FF` form of a `bl_address=` value.
enum BootloaderAddressText {
    static func isAddress(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count == 6 && parts.allSatisfy { $0.count == 2 && UInt8($0, radix: 16) != nil }
    }
}
