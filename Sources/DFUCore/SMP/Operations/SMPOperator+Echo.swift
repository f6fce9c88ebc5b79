extension SMPOperator {
    /// Sends `text` in an echo request and returns what the device answers; an answer that is not
    /// the text is the device's fault.
    public func echo(_ text: String) async throws(DFUError) -> String {
        try await run("'dfu echo'") { link async throws(DFUError) in
            let answer = try await link.send(OSEchoRequest(text: text), "the echo request")
            guard answer.text == text else {
                throw .deviceRejected("\(device) answered the echo with other text (\(answer.text.utf8.count) bytes "
                                      + "instead of \(text.utf8.count)): it does not echo correctly.")
            }
            return answer.text
        }
    }
}
