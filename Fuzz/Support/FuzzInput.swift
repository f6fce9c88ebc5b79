/// One fuzzer input taken apart: leading bytes choose a target's options, the rest is the data or
/// is cut into the chunks a link would deliver. Every read is bounded by what is left; an exhausted
/// input reads as zeros and empty chunks, so any input is a valid run.
struct FuzzInput {
    private(set) var remaining: ArraySlice<UInt8>

    init(_ data: UnsafeRawPointer?, _ size: Int) {
        remaining = ArraySlice(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size))
    }

    init(_ bytes: [UInt8]) {
        remaining = bytes[...]
    }

    var isEmpty: Bool { remaining.isEmpty }

    /// The next byte, or 0 at the end.
    mutating func byte() -> UInt8 {
        remaining.popFirst() ?? 0
    }

    /// The next two bytes, big-endian.
    mutating func uint16() -> UInt16 {
        UInt16(byte()) << 8 | UInt16(byte())
    }

    /// A chunk of the length the next byte gives (0…255), or what is left.
    mutating func chunk() -> [UInt8] {
        take(Int(byte()))
    }

    mutating func take(_ count: Int) -> [UInt8] {
        let taken = remaining.prefix(count)
        remaining = remaining.dropFirst(taken.count)
        return Array(taken)
    }

    /// Everything left.
    mutating func rest() -> [UInt8] {
        take(remaining.count)
    }

    /// The input as chunks: a length byte, then that many bytes, until the end.
    mutating func chunks() -> [[UInt8]] {
        var chunks: [[UInt8]] = []
        while !isEmpty { chunks.append(chunk()) }
        return chunks
    }
}

/// A broken promise of the code under test that is not a crash by itself (a round trip that does
/// not come back, a split stream that decodes differently): made a crash, so libFuzzer keeps the input.
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("fuzz invariant: \(message())") }
}
