import Foundation

/// smpmgr uploading the same image to the same paced virtual device as the serial part's dfu run
/// (`PacedSerialSim` at `baud`): `smpmgr --port PATH --baudrate N --loglevel INFO --logfile LOG
/// image upload IMAGE`, its options otherwise as a user leaves them (the 128-byte lines and two
/// line buffers it assumes, so 169-byte messages). Its upload time is read from its log, from
/// the MCUmgr parameters reply (its connect) to "Upload complete", as
/// scripts/smpclient-serial-crosscheck.sh reads it; the whole command's wall time is kept too.
struct SmpmgrRun {
    let executable: String
    let baud: Int
    let image: ImageFile

    /// smpmgr's own version (`smpmgr --version`), or nil when it will not say.
    static func version(of executable: String) -> String? {
        guard let run = try? ChildProcess(executable: executable, arguments: ["--version"], timeout: .seconds(60)).run(),
              run.status == 0 else { return nil }
        let text = run.output.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    /// Throws only when the sim cannot be set up; what becomes of smpmgr is in the measurement.
    func measure() async throws -> SmpmgrMeasurement {
        let sim = try await PacedSerialSim.start(baud: baud)
        let files = FileManager.default
        let log = files.temporaryDirectory.appendingPathComponent("dfu-bench-smpmgr-\(UUID().uuidString).log")
        defer { try? files.removeItem(at: log) }
        let started = Result { () throws(BenchError) -> ChildProcess.Outcome in
            try ChildProcess(executable: executable,
                             arguments: ["--port", sim.path, "--baudrate", String(baud), "--loglevel", "INFO",
                                         "--logfile", log.path, "image", "upload", ChildProcess.absolute(image.path)],
                             timeout: .seconds(600)).run()
        }
        await sim.stop()
        let run: ChildProcess.Outcome
        switch started {
        case .success(let outcome): run = outcome
        case .failure(let error):
            // smpmgr that will not start is a row of the report, not a failed bench.
            return SmpmgrMeasurement(baud: baud, image: image.name, bytes: image.bytes.count, uploadSeconds: nil, wallSeconds: 0,
                                     ceiling: PacedSerialSim.ceiling(baud: baud), problem: "\(error)")
        }
        let logText = files.contents(atPath: log.path).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let upload = run.status == 0 ? Self.uploadSeconds(log: logText) : nil
        let problem = run.status == 0
            ? (upload == nil ? "its log has no \"MCUMgr parameters\" and \"Upload complete\" lines to time" : nil)
            : "exit \(run.status): " + (run.errors + run.output).split(separator: "\n").suffix(2).joined(separator: " | ")
        return SmpmgrMeasurement(baud: baud, image: image.name, bytes: image.bytes.count, uploadSeconds: upload,
                                 wallSeconds: run.wallSeconds, ceiling: PacedSerialSim.ceiling(baud: baud), problem: problem)
    }

    /// Seconds from the first "MCUMgr parameters: " line to the last "- Upload complete" line of
    /// smpmgr's log, whose lines start with Python's asctime (`2025-01-31 12:34:56,789`); nil
    /// without both. An upload of minutes does not cross midnight often enough to handle.
    static func uploadSeconds(log: String) -> Double? {
        var start: Double?
        var end: Double?
        for line in log.split(separator: "\n") {
            if start == nil, line.contains("MCUMgr parameters: ") { start = time(of: line) }
            if line.contains("- Upload complete") { end = time(of: line) ?? end }
        }
        guard let start, let end, end >= start else { return nil }
        return end - start
    }

    /// `HH:MM:SS,mmm` at characters 12…23 of an asctime line, in seconds of the day.
    private static func time(of line: Substring) -> Double? {
        let characters = Array(line)
        guard characters.count >= 23 else { return nil }
        let fields = String(characters[11 ..< 23]).split(whereSeparator: { $0 == ":" || $0 == "," })
        guard fields.count == 4, let hours = Double(fields[0]), let minutes = Double(fields[1]),
              let seconds = Double(fields[2]), let milliseconds = Double(fields[3]) else { return nil }
        return hours * 3600 + minutes * 60 + seconds + milliseconds / 1000
    }
}

/// One smpmgr upload: its time from its log, goodput over that time, and the whole command's time.
struct SmpmgrMeasurement: Sendable, Encodable {
    let baud: Int
    let image: String
    let bytes: Int
    /// From its MCUmgr parameters reply to "Upload complete"; nil when it failed or did not log them.
    let uploadSeconds: Double?
    let wallSeconds: Double
    let ceiling: Double
    /// Why there is no upload time.
    let problem: String?

    var goodput: Double? { uploadSeconds.flatMap { $0 > 0 ? Double(bytes) / $0 : nil } }

    var ratio: Double? { goodput.map { ceiling > 0 ? $0 / ceiling : 0 } }
}
