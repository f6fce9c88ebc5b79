/// One flash area (an MCUboot slot) whose bytes are really stored, with NOR flash rules: erasing sets
/// whole pages to 0xFF, programming can only clear bits (the new byte is `old & data`). A server that
/// forgot to erase before writing therefore corrupts the image, as it would on hardware, and the
/// bootloader's hash check catches it.
///
/// Every operation returns how long it takes on the modelled flash; the caller decides what to do
/// with that time (the SMP server holds its reply back for it).
public struct FlashSlot: Sendable {
    public static let erasedByte: UInt8 = 0xFF
    public static let defaultPageSize = 4096

    /// Bytes in the slot, a whole number of pages.
    public let size: Int
    public let pageSize: Int
    public let timing: FlashTiming
    public private(set) var bytes: [UInt8]

    /// An erased slot. `size` is rounded up to whole pages; both are at least one page.
    public init(size: Int, pageSize: Int = FlashSlot.defaultPageSize, timing: FlashTiming = .nRF52840) {
        let page = max(1, pageSize)
        self.pageSize = page
        self.size = max(page, (size + page - 1) / page * page)
        self.timing = timing
        self.bytes = [UInt8](repeating: Self.erasedByte, count: self.size)
    }

    public var pageCount: Int { size / pageSize }

    /// Pages that `range` touches (a partial page counts whole: flash erases by page).
    public func pages(covering range: Range<Int>) -> Range<Int> {
        let clamped = range.clamped(to: 0 ..< size)
        guard !clamped.isEmpty else { return 0 ..< 0 }
        return clamped.lowerBound / pageSize ..< (clamped.upperBound + pageSize - 1) / pageSize
    }

    public func isErased(_ range: Range<Int>) -> Bool {
        bytes[range.clamped(to: 0 ..< size)].allSatisfy { $0 == Self.erasedByte }
    }

    public var isErased: Bool { isErased(0 ..< size) }

    public func read(_ range: Range<Int>) -> ArraySlice<UInt8> {
        bytes[range.clamped(to: 0 ..< size)]
    }

    /// Erases every page `range` touches and returns the time it takes.
    @discardableResult
    public mutating func erase(_ range: Range<Int>) -> Duration {
        let pages = pages(covering: range)
        guard !pages.isEmpty else { return .zero }
        let start = pages.lowerBound * pageSize
        let end = pages.upperBound * pageSize
        bytes.replaceSubrange(start ..< end, with: repeatElement(Self.erasedByte, count: end - start))
        return timing.eraseTime(pages: pages.count)
    }

    @discardableResult
    public mutating func eraseAll() -> Duration {
        erase(0 ..< size)
    }

    /// Programs `data` at `offset` (NOR: `old & new`). A write that does not fit the slot changes
    /// nothing and fails.
    public mutating func write(_ data: some Collection<UInt8>, at offset: Int) -> Result<Duration, FlashError> {
        let (end, overflow) = offset.addingReportingOverflow(data.count)
        guard offset >= 0, !overflow, end <= size else {
            return .failure(.outOfBounds(offset: offset, length: data.count, size: size))
        }
        var index = offset
        for byte in data {
            bytes[index] &= byte
            index += 1
        }
        return .success(timing.writeTime(bytes: data.count))
    }

    /// Exchanges the whole contents of two slots of the same geometry: the bootloader's swap, whose
    /// time the bootloader computes itself (it moves sector by sector).
    /// Slots of different geometry are left alone (the bootloader only ever builds equal pairs).
    mutating func exchangeContents(with other: inout FlashSlot) {
        guard size == other.size, pageSize == other.pageSize else { return }
        swap(&bytes, &other.bytes)
    }
}

/// A flash operation outside the slot: always a bug in the caller, reported as a value.
public enum FlashError: Error, Sendable, Hashable, CustomStringConvertible {
    case outOfBounds(offset: Int, length: Int, size: Int)

    public var description: String {
        switch self {
        case .outOfBounds(let offset, let length, let size):
            return "flash write of \(length) bytes at offset \(offset) does not fit the \(size)-byte slot"
        }
    }
}
