/// A journal of the first format, `dfu-journal/1` (dfu before typed requests), read so that an
/// update an older dfu left unfinished can still be resumed. That format kept the request as the
/// `dfu flash` words that restart it (`arguments`) and the last outcome as an exit code; both are
/// read here, once, into the typed journal. This is the only place dfu reads flash words back:
/// it knows exactly the words the old writer wrote, and refuses any other (the file is then set
/// aside, as any journal that is not one).
struct LegacyJournal: Decodable {
    static let format = "dfu-journal/1"

    struct Outcome: Decodable {
        var exitCode: Int32
        var message: String

        enum CodingKeys: String, CodingKey {
            case exitCode = "exit_code"
            case message
        }
    }

    var device: String
    var protocolName: String
    var imagePath: String
    var imageSHA256: String
    var imageSize: Int
    var imageVersion: String?
    var arguments: [String]
    var status: UpdateJournal.Status
    var stage: String
    var offset: Int
    var part: String?
    var bootloaderName: String?
    var versionBefore: String?
    var versionAfter: String?
    var attempts: Int
    var startedAt: Int
    var updatedAt: Int
    var finishedAt: Int?
    var lastOutcome: Outcome?

    enum CodingKeys: String, CodingKey {
        case device
        case protocolName = "protocol"
        case imagePath = "image_path"
        case imageSHA256 = "image_sha256"
        case imageSize = "image_size"
        case imageVersion = "image_version"
        case arguments, status, stage, offset, part
        case bootloaderName = "bootloader_name"
        case versionBefore = "version_before"
        case versionAfter = "version_after"
        case attempts
        case startedAt = "started_at"
        case updatedAt = "updated_at"
        case finishedAt = "finished_at"
        case lastOutcome = "last_outcome"
    }

    /// Why a legacy journal cannot be converted (the journal is then set aside with it).
    struct Unreadable: Error {
        var reason: String
    }

    /// The journal in today's form: the same update, the same progress.
    func converted() throws(Unreadable) -> UpdateJournal {
        guard let name = UpdateProtocolName(rawValue: protocolName) else {
            throw Unreadable(reason: "it names a protocol this dfu does not know ('\(protocolName)')")
        }
        var request = try Self.request(from: arguments)
        // The journal's own fields name the device and the file canonically (the words have the
        // device as it was typed).
        request.device = device
        request.imagePath = imagePath
        var journal = UpdateJournal(request: request, file: UpdateFileFacts(sha256: imageSHA256, size: imageSize,
                                                                             protocolName: name),
                                    imageVersion: imageVersion, now: startedAt)
        journal.status = status
        journal.stage = stage
        journal.offset = offset
        journal.part = part
        journal.bootloaderName = bootloaderName
        journal.versionBefore = versionBefore
        journal.versionAfter = versionAfter
        journal.attempts = attempts
        journal.updatedAt = updatedAt
        journal.finishedAt = finishedAt
        journal.lastOutcome = try lastOutcome.map { outcome throws(Unreadable) in try Self.outcome(outcome) }
        return journal
    }

    /// The request the words of `FlashJournal.arguments(of:)` (dfu-journal/1) stood for: the file,
    /// then `--device` and the options that decide what is sent, each as that writer spelled it.
    static func request(from words: [String]) throws(Unreadable) -> FlashRequest {
        guard let image = words.first, !image.hasPrefix("-") else {
            throw Unreadable(reason: "its arguments do not start with the update file")
        }
        var request = FlashRequest(imagePath: image, device: "")
        var rest = words.dropFirst()
        while let word = rest.popFirst() {
            func value() throws(Unreadable) -> String {
                guard let next = rest.popFirst() else { throw Unreadable(reason: "its arguments end after \(word)") }
                return next
            }
            func number<T: LosslessStringConvertible & Comparable>(_ range: ClosedRange<T>) throws(Unreadable) -> T {
                let text = try value()
                guard let parsed = T(text), range.contains(parsed) else {
                    throw Unreadable(reason: "its arguments give \(word) '\(text)'")
                }
                return parsed
            }
            switch word {
            case "--device": request.device = try value()
            case "--adapter": request.adapter = try value()
            case "--key": request.keyPath = try value()
            case "--allow-unsigned": request.allowUnsigned = true
            case "--expect-version": request.expectVersion = try value()
            case "--prn": request.packetReceiptInterval = try number(0 ... UInt16.max)
            case "--bootloader-name": request.bootloaderName = try value()
            case "--mode":
                let text = try value()
                guard let mode = ActivationMode(rawValue: text) else {
                    throw Unreadable(reason: "its arguments give --mode '\(text)'")
                }
                request.mode = mode
            case "--image": request.imageIndex = try number(0 ... 15)
            case "--min-battery": request.minimumBattery = try number(0 ... 100)
            case "--allow-downgrade": request.allowDowngrade = true
            case "--require-newer": request.requireNewer = true
            case "--allow-host-battery": request.allowHostOnBattery = true
            case "--pair": request.pair = true
            case "--connect-timeout": request.timeouts.connect = try seconds(number(0 ... FlashRequest.Timeouts.maximumSeconds))
            case "--reboot-timeout": request.timeouts.reboot = try seconds(number(0 ... FlashRequest.Timeouts.maximumSeconds))
            case "--chunk-timeout": request.timeouts.chunk = try seconds(number(0 ... FlashRequest.Timeouts.maximumSeconds))
            case "--first-chunk-timeout":
                request.timeouts.firstChunk = try seconds(number(0 ... FlashRequest.Timeouts.maximumSeconds))
            default:
                throw Unreadable(reason: "its arguments hold '\(word)', which no dfu wrote there")
            }
        }
        return request
    }

    /// A timeout of 0 was never written (the options refuse it).
    private static func seconds(_ value: Double) throws(Unreadable) -> Double {
        guard value > 0 else { throw Unreadable(reason: "its arguments give a timeout of 0 seconds") }
        return value
    }

    /// The exit codes dfu-journal/1 recorded, as README "Exit codes" numbers them, read back as the
    /// facts they stood for. Only here does DFUCore read an exit code: it is the old file's data.
    static func outcome(_ legacy: Outcome) throws(Unreadable) -> UpdateJournal.Outcome {
        let kinds: [Int32: DFUError.Kind] = [
            1: .internalError, 2: .usage, 3: .image, 4: .precondition, 5: .deviceUnreachable, 6: .transferInterrupted,
            7: .deviceRejected, 8: .postRebootCheckFailed, 9: .authenticationFailed,
        ]
        switch legacy.exitCode {
        case 0: return UpdateJournal.Outcome(result: .succeeded, message: legacy.message)
        case 130: return UpdateJournal.Outcome(result: .interrupted, message: legacy.message)
        default:
            guard let kind = kinds[legacy.exitCode] else {
                throw Unreadable(reason: "its last outcome is exit code \(legacy.exitCode), which no dfu gives")
            }
            return UpdateJournal.Outcome(result: .failed, failure: kind, message: legacy.message)
        }
    }
}
