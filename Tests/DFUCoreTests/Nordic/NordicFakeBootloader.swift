@testable import DFUCore

/// A scripted nRF5 SDK Secure DFU bootloader for the transfer core's tests: pure, no I/O. It follows
/// the object rules of nordic-secure-dfu.md §3.1 with the §10 corrections: Create(command) clears all
/// progress, Create(data) rolls back to the last executed object, writes that would overflow an
/// object or are not a multiple of 4 are dropped, packets are silently dropped when its buffers are
/// "full" (scripted or random), a second Execute of an executed object answers success and an
/// Execute of an unfilled object 08, and a dropped link keeps RAM progress (SDK 15.0) or reloads
/// the persisted settings (SDK 16/17).
struct NordicFakeBootloader {
    enum SDK { case sdk15, sdk17 }

    let sdk: SDK
    let commandMaxSize: Int
    let dataMaxSize: Int
    let expectedInit: [UInt8]
    let expectedImage: [UInt8]
    /// Execute(command) answers this instead of accepting the init packet.
    var initRejection: NordicRemoteError?
    /// The final Execute answers this instead of validating.
    var validationFailure: NordicRemoteError?
    /// Packet writes (numbered from 0 over the whole run) the buffers drop silently.
    var droppedPackets: Set<Int> = []
    /// Packet writes whose first byte arrives flipped.
    var corruptedPackets: Set<Int> = []
    /// Packet writes that arrive after the write that follows them, as over several ATT bearers
    /// (EATT); only while more than one packet can be in flight (a PRN other than 1).
    var swappedPackets: Set<Int> = []
    private var heldPacket: [UInt8]?
    /// Packet writes that arrive only after the next Calculate Checksum was answered: the request
    /// overtook them (several ATT bearers).
    var lateUntilChecksum: Set<Int> = []
    private var latePackets: [[UInt8]] = []
    /// Packet writes that find their object already full, as when packets from before its Create
    /// landed in it (several ATT bearers): not taken, and a due receipt answers 03 (§3.1).
    var overflowingPackets: Set<Int> = []
    /// Random silent drops, per mille, from `rng`.
    var dropPerMille = 0
    var rng = SplitMix64(seed: 0)
    /// Whether a silently dropped packet still counts toward the PRN (the SDK does not count it).
    var prnCountsDroppedPackets = false

    // Command object
    private(set) var command: [UInt8] = []
    private(set) var commandSize: Int?
    private(set) var initValid = false
    // Data objects: everything received, the executed part ends at `offsetLast`.
    private(set) var received: [UInt8] = []
    private var crc = CRC32()
    private var offsetLast = 0
    private var crcLast: UInt32 = 0
    private var objectSize = 0
    private var objectExecuted = false
    /// Set by Select and Create: Write and Execute name no object (the SDK keeps it the same way).
    private var current: NordicObjectType = .command
    private var prnTarget: UInt16 = 0
    private var prnCounter = 0
    private(set) var packetIndex = 0
    /// The image it validated and booted.
    private(set) var completedImage: [UInt8]?
    /// It answered the final Execute and resets: the link drops.
    private(set) var resetting = false
    private(set) var requests: [NordicRequest] = []

    init(sdk: SDK = .sdk15, commandMaxSize: Int = 256, dataMaxSize: Int = 4096, initPacket: [UInt8], image: [UInt8]) {
        self.sdk = sdk
        self.commandMaxSize = commandMaxSize
        self.dataMaxSize = dataMaxSize
        expectedInit = initPacket
        expectedImage = image
    }

    var offset: Int { received.count }

    mutating func controlPoint(_ bytes: [UInt8]) -> [UInt8] {
        guard let request = NordicRequest(decoding: bytes) else {
            return [0x60, bytes.first ?? 0, NordicResultCode.opcodeNotSupported.rawValue]
        }
        requests.append(request)
        let response = NordicResponse(opcode: request.opcode, outcome: answer(request)).encoded
        if case .calculateChecksum = request, !latePackets.isEmpty {
            let late = latePackets
            latePackets = []
            for packet in late { _ = receive(packet) }
        }
        return response
    }

    private mutating func answer(_ request: NordicRequest) -> NordicResponse.Outcome {
        switch request {
        case .select(let type) where type != current:
            current = type
            return answer(request)
        case .select(.command):
            return .success(.objectInfo(NordicObjectInfo(maxSize: UInt32(commandMaxSize), offset: UInt32(command.count),
                                                         crc: CRC32.checksum(command))))
        case .select(.data):
            return .success(.objectInfo(NordicObjectInfo(maxSize: UInt32(dataMaxSize), offset: UInt32(offset), crc: crc.value)))
        case .create(.command, let size):
            guard size > 0 else { return refuse(.invalidParameter) }
            guard size <= commandMaxSize else { return refuse(.insufficientResources) }
            command = []
            commandSize = Int(size)
            initValid = false
            clearData()
            current = .command
            prnCounter = 0
            return .success(.none)
        case .create(.data, let size):
            let size = Int(size)
            guard initValid else { return refuse(.operationNotPermitted) }
            guard size > 0 else { return refuse(.invalidParameter) }
            guard size <= dataMaxSize else { return refuse(.insufficientResources) }
            guard offsetLast + size <= expectedImage.count else { return refuse(.operationNotPermitted) }
            guard size % dataMaxSize == 0 || offsetLast + size == expectedImage.count else { return refuse(.invalidParameter) }
            received.removeLast(received.count - offsetLast)
            crc = CRC32(continuing: crcLast)
            objectSize = size
            objectExecuted = false
            current = .data
            prnCounter = 0
            return .success(.none)
        case .setPRN(let value):
            prnTarget = value
            prnCounter = 0
            return .success(.none)
        case .calculateChecksum:
            return .success(.checksum(current == .command ? NordicChecksum(offset: UInt32(command.count), crc: CRC32.checksum(command))
                                                          : NordicChecksum(offset: UInt32(offset), crc: crc.value)))
        case .execute:
            return execute()
        case .abort:
            resetting = true
            return .success(.none)
        }
    }

    private mutating func execute() -> NordicResponse.Outcome {
        switch current {
        case .command:
            guard let commandSize, command.count == commandSize else { return refuse(.operationNotPermitted) }
            if initValid { return .success(.none) }
            if let initRejection { return .failure(initRejection) }
            guard command == expectedInit else { return refuse(.invalidObject) }
            initValid = true
            return .success(.none)
        case .data:
            if objectExecuted { return .success(.none) }
            guard objectSize > 0, offset - offsetLast == objectSize else { return refuse(.operationNotPermitted) }
            offsetLast = offset
            crcLast = crc.value
            objectExecuted = true
            guard offset == expectedImage.count else { return .success(.none) }
            resetting = true
            if let validationFailure { return .failure(validationFailure) }
            guard received == expectedImage else {
                return .failure(NordicRemoteError(result: .extendedError, extended: .verificationFailed))
            }
            completedImage = received
            return .success(.none)
        }
    }

    /// One Packet-characteristic write; returns the PRN notification if one is due.
    mutating func packet(_ bytes: [UInt8]) -> [UInt8]? {
        defer { packetIndex += 1 }
        if lateUntilChecksum.contains(packetIndex) {
            latePackets.append(bytes)
            return nil
        }
        if swappedPackets.contains(packetIndex), prnTarget != 1, heldPacket == nil {
            heldPacket = bytes
            return nil
        }
        let receipt = receive(bytes)
        guard let late = heldPacket else { return receipt }
        heldPacket = nil
        return receive(late) ?? receipt
    }

    private mutating func receive(_ bytes: [UInt8]) -> [UInt8]? {
        var bytes = bytes
        let dropped = droppedPackets.contains(packetIndex) || (dropPerMille > 0 && rng.next(below: 1000) < dropPerMille)
        if dropped && !prnCountsDroppedPackets { return nil }
        if corruptedPackets.contains(packetIndex), !bytes.isEmpty { bytes[0] ^= 0xFF }
        var prnReportsZero = false
        var overflowed = false
        if !dropped {
            switch current {
            case .command:
                if let commandSize, command.count + bytes.count <= commandSize { command += bytes }
            case .data:
                if bytes.count % 4 != 0 {
                    prnReportsZero = true // §10.3
                } else if !overflowingPackets.contains(packetIndex), offset - offsetLast + bytes.count <= objectSize {
                    received += bytes
                    crc.update(bytes)
                } else {
                    overflowed = true // §3.1: 03, the bytes not taken
                }
            }
        }
        guard prnTarget > 0 else { return nil }
        prnCounter += 1
        guard prnCounter >= Int(prnTarget) else { return nil }
        prnCounter = 0
        // A due receipt carries the write's own result (SDK nrf_dfu_ble.c: CRC_GET with it).
        if overflowed {
            return NordicResponse(opcode: .calculateChecksum, outcome: .failure(NordicRemoteError(result: .invalidParameter))).encoded
        }
        let checksum = prnReportsZero ? NordicChecksum(offset: 0, crc: 0)
            : current == .command ? NordicChecksum(offset: UInt32(command.count), crc: CRC32.checksum(command))
            : NordicChecksum(offset: UInt32(offset), crc: crc.value)
        return NordicResponse(opcode: .calculateChecksum, outcome: .success(.checksum(checksum))).encoded
    }

    /// The link dropped (§10.2): SDK 15.0 keeps its RAM progress; SDK 16/17 reload the settings,
    /// which hold the executed init packet and no data progress.
    mutating func linkDropped() {
        guard !resetting else { return }
        switch sdk {
        case .sdk15:
            break
        case .sdk17:
            if !initValid {
                command = []
                commandSize = nil
            }
            clearData()
            current = .command
            prnTarget = 0
            prnCounter = 0
        }
    }

    private mutating func clearData() {
        received = []
        crc = CRC32()
        offsetLast = 0
        crcLast = 0
        objectSize = 0
        objectExecuted = false
    }

    private func refuse(_ result: NordicResultCode) -> NordicResponse.Outcome {
        .failure(NordicRemoteError(result: result))
    }
}
