// All pointer work with liblzma lives in this file (STYLE.md, "In dfu"): `grep -rl "import CLZMA"`
// lists nothing else. One call decodes one whole raw stream from memory into a buffer of a fixed
// size, so a stream that claims more output than its image says cannot make dfu allocate more.
internal import CLZMA

enum LibLZMA {
    /// Decodes a raw LZMA2 stream (no .xz container), through the ARM-Thumb BCJ decoder when
    /// `armThumb` is set: the filter chain imgtool's `--compression lzma2armthumb` encodes with.
    /// The stream must end with LZMA2's end marker and yield at most `outputLimit` bytes.
    static func decodeRaw(_ input: ArraySlice<UInt8>, properties: LZMA2Properties, armThumb: Bool,
                          outputLimit: Int) -> Result<[UInt8], DecompressionError> {
        guard !input.isEmpty else { return .failure(.truncated) }
        var options = lzma_options_lzma()
        // A dictionary larger than the whole output is never used; capping it keeps a hostile
        // header from asking liblzma for gigabytes.
        let cap = UInt32(clamping: max(Int(c_lzma_dict_size_min), outputLimit))
        options.dict_size = max(c_lzma_dict_size_min, min(properties.dictionarySize, cap))
        options.lc = properties.literalContextBits
        options.lp = properties.literalPositionBits
        options.pb = properties.positionBits
        // One extra byte tells "exactly the limit" from "more than the limit".
        var output = [UInt8](repeating: 0, count: outputLimit + 1)
        var stream = lzma_stream()
        let (status, produced): (lzma_ret, Int) = withUnsafeMutablePointer(to: &options) { lzma2 in
            var filters: [lzma_filter] = []
            if armThumb { filters.append(lzma_filter(id: c_lzma_filter_armthumb, options: nil)) }
            filters.append(lzma_filter(id: c_lzma_filter_lzma2, options: UnsafeMutableRawPointer(lzma2)))
            filters.append(lzma_filter(id: c_lzma_vli_unknown, options: nil))
            let setup = lzma_raw_decoder(&stream, filters)
            guard setup == LZMA_OK else { return (setup, 0) }
            defer { lzma_end(&stream) }
            return input.withUnsafeBufferPointer { source in
                output.withUnsafeMutableBufferPointer { target in
                    stream.next_in = source.baseAddress
                    stream.avail_in = source.count
                    stream.next_out = target.baseAddress
                    stream.avail_out = target.count
                    var status = LZMA_OK
                    // LZMA_FINISH with all input given runs to the end marker, a full buffer or an
                    // error; the loop only guards against a call that returns early with progress.
                    while status == LZMA_OK && stream.avail_out > 0 {
                        let before = (stream.avail_in, stream.avail_out)
                        status = lzma_code(&stream, LZMA_FINISH)
                        if (stream.avail_in, stream.avail_out) == before { break }
                    }
                    return (status, target.count - stream.avail_out)
                }
            }
        }
        if produced > outputLimit { return .failure(.tooLong(limit: outputLimit)) }
        switch status {
        case LZMA_STREAM_END:
            output.removeSubrange(produced...)
            return .success(output)
        case LZMA_DATA_ERROR: return .failure(.corrupt)
        case LZMA_OPTIONS_ERROR: return .failure(.unsupportedProperties)
        case LZMA_MEM_ERROR, LZMA_PROG_ERROR: return .failure(.library(code: Int(status.rawValue)))
        default: return .failure(.truncated) // input ran out (LZMA_OK, LZMA_BUF_ERROR) before the end marker
        }
    }
}
