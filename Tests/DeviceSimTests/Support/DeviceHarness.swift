import DFUCore
import DeviceSim
import Testing
import Transport

/// A hand-driven central for one `VirtualDevice`: a virtual clock, writes split like a BLE client
/// (SMPFragmenter, ATT MTU − 3), notifications reassembled with the client's own SMPFrameAssembler
/// and bodies decoded by DFUCore's typed decoders. Our `Pair`: no sockets, no sleeps.
struct DeviceHarness {
    var device: VirtualDevice
    var now = MonotonicInstant(sinceOrigin: .zero)
    var sequence: UInt8 = 0
    /// Bytes per write and per notification (ATT MTU − 3).
    var writeSize: Int
    private var assembler = SMPFrameAssembler()
    /// Every action the device returned, in order.
    private(set) var log: [VirtualDevice.Action] = []
    /// Every complete response frame received, in order.
    private(set) var responses: [SMPFrame] = []
    /// Notifications that did not form a valid frame.
    private(set) var frameErrors: [SMPFrameError] = []

    init(_ device: VirtualDevice, writeSize: Int = 495, connect: Bool = true) {
        self.device = device
        self.writeSize = writeSize
        if connect { self.connect() }
    }

    static func make(version: String = "1.0.0", flash: FlashTiming = .instant,
                     server: SMPServerConfiguration = SMPServerConfiguration(), faults: [SimFault] = [],
                     key: PublicKey? = nil, slotSize: Int = 0x60000, writeSize: Int = 495,
                     images: Int = 1, swapMode: MCUbootSwapMode = .withoutScratch,
                     decryptionKey: ImageDecryptionKey? = nil) throws -> DeviceHarness {
        var options = SimOptions()
        try options.set("version", to: version)
        let configuration = DeviceConfiguration(
            identity: PeerIdentity("C0:00:00:00:00:01"), runningVersion: options.version,
            bootloaderKey: try key ?? PublicKey.defaultBootloaderKey(), decryptionKey: decryptionKey, slotSize: slotSize,
            flashTiming: flash, swapMode: swapMode, server: server, faults: faults, imageCount: images)
        return DeviceHarness(try VirtualDevice(configuration: configuration), writeSize: writeSize)
    }

    mutating func connect() {
        apply(device.handle(.connected(notificationSize: writeSize), now: now))
    }

    mutating func disconnect() {
        assembler.reset()
        apply(device.handle(.disconnected, now: now))
    }

    mutating func apply(_ actions: [VirtualDevice.Action]) {
        log += actions
        for action in actions {
            switch action {
            case .notify(let bytes, _, _):
                do {
                    if let frame = try assembler.append(bytes) { responses.append(frame) }
                } catch {
                    frameErrors.append(error)
                }
            case .dropLink, .rebooting:
                assembler.reset()
            default:
                break
            }
        }
    }

    /// Writes raw payloads as they are (no splitting).
    mutating func writeRaw(_ payload: [UInt8]) {
        apply(device.handle(.write(payload), now: now))
    }

    /// Writes one encoded packet split into `writeSize` writes.
    mutating func write(packet bytes: [UInt8]) throws {
        for fragment in try SMPFragmenter.split(bytes, maxWriteSize: writeSize) { writeRaw(fragment) }
    }

    mutating func nextSequence() -> UInt8 {
        sequence &+= 1
        return sequence
    }

    /// Moves the clock to the device's next deadline; false when it has none.
    @discardableResult
    mutating func step() -> Bool {
        guard let deadline = device.nextDeadline else { return false }
        now = max(now, deadline)
        apply(device.handle(.tick, now: now))
        return true
    }

    /// Runs every timer, reboots included, until the device has nothing left to do.
    mutating func runUntilIdle() {
        while step() {}
    }

    mutating func advance(by duration: Duration) {
        now = now.advanced(by: duration)
        apply(device.handle(.tick, now: now))
    }

    /// The reply to `sequence`, stepping time until it arrives; fails the test when none comes.
    mutating func reply(to sequence: UInt8) throws -> SMPPacket {
        let frame = awaitResponse(sequence: sequence)
        return try SMPPacket(frame: try #require(frame, "no reply to sequence \(sequence)"))
    }

    /// Steps until a response with `sequence` arrives (or the device goes idle); returns it.
    mutating func awaitResponse(sequence: UInt8) -> SMPFrame? {
        while true {
            if let frame = responses.last(where: { $0.header.sequence == sequence }) { return frame }
            guard step() else { return nil }
        }
    }

    /// Sends a typed request and waits for its reply, decoded with the client's typed decoder.
    mutating func call<R: SMPRequest>(_ request: R, version: SMPVersion = .v2) throws -> Result<R.Response, SMPError> {
        let frame = try send(request.packet(sequence: nextSequence(), version: version))
        return try R.Response.decodeResponse(try SMPPacket(frame: frame).body)
    }

    /// Sends any packet (raw bodies for malformed requests) and returns the reply frame.
    mutating func send(_ packet: SMPPacket) throws -> SMPFrame {
        try write(packet: try packet.encoded())
        let frame = awaitResponse(sequence: packet.header.sequence)
        return try #require(frame, "no reply to \(packet.header)")
    }

    /// The status of the reply to a raw packet.
    mutating func status(of packet: SMPPacket) throws -> SMPStatus {
        try SMPStatus(body: try SMPPacket(frame: try send(packet)).body)
    }

    /// An upload request packet with a hand-built body.
    mutating func uploadPacket(_ body: CBORMap, version: SMPVersion = .v2) -> SMPPacket {
        SMPPacket(version: version, op: .write, group: .image, command: ImageMgmtCommand.upload.rawValue,
                  sequence: nextSequence(), body: body)
    }

    mutating func state() throws -> ImageStateResponse {
        try call(ImageStateReadRequest()).get()
    }

    /// Uploads `image` in chunks sized for `bufferSize`, stop-and-wait, trusting every reply's `off`.
    /// Stops early (returning the last offset) when `stopAt` bytes have been acknowledged.
    @discardableResult
    mutating func upload(_ image: [UInt8], bufferSize: Int = 2475, sha: [UInt8]? = nil,
                         stopAt: Int? = nil, imageNumber: UInt64? = nil) throws -> Int {
        let sha = try sha ?? SimSamples.fileSHA(image)
        var offset = 0
        var first = true
        while offset < image.count {
            var request = ImageUploadRequest(image: first ? imageNumber : nil, length: first ? UInt64(image.count) : nil,
                                             offset: UInt64(offset), sha: first ? sha : nil, data: [])
            let room = try #require(request.maximumDataCount(packetSize: bufferSize))
            request.data = Array(image[offset ..< min(image.count, offset + room)])
            let reply = try call(request).get()
            offset = Int(reply.offset)
            first = false
            if let stopAt, offset >= stopAt { return offset }
        }
        return offset
    }
}
