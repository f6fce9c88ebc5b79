import DFUCore
import Transport

/// BLE links with and without reassembly, from a small MTU to Nordic's recommended 5 × 495.
private let budgets = [
    SMPPacketBudget(maxWriteSize: 64, deviceBufferSize: 256, deviceReassembles: true),
    SMPPacketBudget(maxWriteSize: 128),
    SMPPacketBudget(maxWriteSize: 244, deviceBufferSize: 1024, deviceReassembles: true),
    SMPPacketBudget(maxWriteSize: 495, deviceBufferSize: 2475, deviceReassembles: true),
]
/// The longest image an input can choose (2,072 bytes), made once; a shorter one is its prefix.
private let longestImage = exchangeBytes(count: 32 + 255 * 8, seed: 0x9E37_79B9_7F4A_7C15)

/// The upload driver of SMPUploadExchange: the core, the device model, the virtual link between
/// them and what the core was told. Its moves are in UploadExchange+Moves.swift, the checks of each
/// event in UploadExchange+Checks.swift.
struct UploadExchange: Exchange {
    let image: [UInt8]
    let job: ImageUploadJob
    let honestTail: Bool
    let firstWriteSize: Int
    var core: ImageUploadCore
    var device: UploadDevice
    var now = MonotonicInstant.zero
    var writeSize: Int
    var linkUp = true
    /// The device's reassembly of the core's writes.
    var requests = SMPFrameAssembler()
    /// Requests the device holds and has not answered, oldest first.
    var inbox: [SMPFrame] = []
    /// The header of the last request, for answers to something no longer waited for.
    var lastRequest: SMPHeader?
    var lastAnswer: [UInt8] = []
    /// The notifications reassembled as the client does, to know what the core was told.
    var answers = UploadExchange.clientAssembler()
    var reportedOffsets: Set<UInt64> = [0]
    /// Requests the device received, all told.
    var requestCount = 0
    /// Whether an answer in the event being fed acknowledged the whole image.
    var wholeImageAnswered = false
    var finished = false

    static func clientAssembler() -> SMPFrameAssembler {
        SMPFrameAssembler(maximumFrameSize: SMPClientCore.Configuration().maxResponseSize)
    }

    init(options input: inout FuzzInput) {
        let link = input.byte()
        let size = input.byte()
        let options = input.byte()
        let budget = budgets[Int(link & 3)]
        var configuration = ImageUploadConfiguration(window: 1 + Int(link >> 2 & 3),
                                                     maxFailuresPerOffset: 2 + Int(options & 3))
        if options & 0x04 != 0 { configuration.resyncAfterSilence = .seconds(20) }
        honestTail = link & 0x10 == 0
        var client = SMPClientCore.Configuration(version: link & 0x20 != 0 ? .v1 : .v2)
        client.dropsLeftoverReplies = link & 0x40 != 0
        image = Array(longestImage.prefix(32 + Int(size) * 8))
        guard let sha = try? SHA256.hash(image) else { fatalError("SHA-256 of the image failed") }
        job = ImageUploadJob(image: image, sha256: sha, imageNumber: options & 0x08 != 0 ? 1 : nil,
                             upgradeOnly: options & 0x10 != 0,
                             slotHash: options & 0x20 != 0 ? Array(sha.reversed()) : nil)
        core = ImageUploadCore(job: job, configuration: configuration,
                               client: SMPClientCore(budget: budget, configuration: client))
        device = UploadDevice(job: job, checksImage: options & 0x40 != 0)
        firstWriteSize = budget.maxWriteSize
        writeSize = budget.maxWriteSize
    }

    var nextDeadline: MonotonicInstant? { core.nextDeadline }

    mutating func start() { feed(.start) }

    mutating func timerFired() { feed(.timerFired) }

    /// A new link if it is down, else the device answers the oldest request, else silence.
    mutating func honestStep() {
        if !linkUp {
            restore(writeSize: firstWriteSize)
        } else if !inbox.isEmpty {
            answer(inbox.removeFirst())
        } else {
            silence()
        }
    }
}
