/// The two streams a command writes to: results and progress on stdout, errors, warnings and
/// `--verbose` logs on stderr (so `dfu flash … > log` still shows problems on the terminal).
enum ConsoleStream: Sendable, Equatable {
    case standardOutput
    case standardError
}

/// Where a renderer's text goes. The process writes to its file descriptors (`Console`); tests
/// capture the text instead, so renderers are checked without a terminal. `text` is written as
/// given: the renderer adds newlines, or a carriage return to redraw a progress bar in place.
protocol TextSink {
    mutating func emit(_ text: String, to stream: ConsoleStream)
}
