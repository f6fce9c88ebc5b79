/// Splits a console byte stream into frame lines and the text between them, whatever the chunks
/// a tty read returns. The first half of `SMPSerialDecoder`.
///
/// A marker opens a frame line wherever it appears, not only after a newline: a shell prompt
/// ("uart:~$ ") is written without one, and both Zephyr's shell transport (`smp_shell.c`,
/// `read_mcumgr_byte`) and smpclient (`SMPSerialTransport._find_smp_packet_start`) look for the
/// marker anywhere. The line runs to the next '\n'; a '\r' just before it is dropped, as Zephyr's
/// base64 decoder skips "\r\n" (`base64_decode`). A marker inside a frame line means its newline
/// was lost: the line is reported cut short and the new one starts there.
struct SMPSerialLineScanner: Sendable {
    enum Output: Sendable, Hashable {
        case text([UInt8])
        /// The characters between the marker and the newline.
        case line(SMPSerialMarker, [UInt8])
        case lineTooLong(limit: Int)
        case unterminatedLine
    }

    private enum State: Sendable {
        case text
        case line(SMPSerialMarker)
        /// After an overlong line: nothing is kept until its newline or the next marker.
        case discarding
    }

    /// Longest frame line, marker and newline included.
    let maximumLineLength: Int
    /// Longest text delivered in one piece.
    let maximumTextChunk: Int

    private var state = State.text
    /// A byte that may be the first of a marker; the next byte decides.
    private var pending: UInt8?
    /// The text, or the frame line's characters, collected so far.
    private var buffer: [UInt8] = []

    init(maximumLineLength: Int, maximumTextChunk: Int) {
        self.maximumLineLength = maximumLineLength
        self.maximumTextChunk = maximumTextChunk
    }

    var bufferedByteCount: Int { buffer.count + (pending == nil ? 0 : 1) }

    /// True between lines with no text held.
    var isIdle: Bool {
        guard case .text = state else { return false }
        return buffer.isEmpty && pending == nil
    }

    mutating func reset() {
        state = .text
        pending = nil
        buffer.removeAll(keepingCapacity: true)
    }

    mutating func scan(_ bytes: some Sequence<UInt8>) -> [Output] {
        var out: [Output] = []
        for byte in bytes {
            if let first = pending {
                pending = nil
                if let marker = SMPSerialMarker(first: first, second: byte) {
                    open(marker, into: &out)
                    continue
                }
                consume(first, into: &out)
            }
            if SMPSerialMarker.canBegin(byte) {
                pending = byte
            } else {
                consume(byte, into: &out)
            }
        }
        return out
    }

    private mutating func open(_ marker: SMPSerialMarker, into out: inout [Output]) {
        switch state {
        case .text:
            if !buffer.isEmpty { out.append(.text(buffer)) }
        case .line:
            out.append(.unterminatedLine)
        case .discarding:
            break
        }
        buffer.removeAll(keepingCapacity: true)
        state = .line(marker)
    }

    private mutating func consume(_ byte: UInt8, into out: inout [Output]) {
        let newline = UInt8(ascii: "\n")
        switch state {
        case .text:
            buffer.append(byte)
            if byte == newline || buffer.count >= maximumTextChunk {
                out.append(.text(buffer))
                buffer.removeAll(keepingCapacity: true)
            }
        case .line(let marker):
            if byte == newline {
                if buffer.last == UInt8(ascii: "\r") { buffer.removeLast() }
                out.append(.line(marker, buffer))
                buffer.removeAll(keepingCapacity: true)
                state = .text
            } else if 2 + buffer.count + 1 + 1 > maximumLineLength {
                // This byte would leave no room for the newline within the limit.
                out.append(.lineTooLong(limit: maximumLineLength))
                buffer.removeAll(keepingCapacity: true)
                state = .discarding
            } else {
                buffer.append(byte)
            }
        case .discarding:
            if byte == newline { state = .text }
        }
    }
}
