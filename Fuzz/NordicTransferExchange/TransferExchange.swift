@testable import DFUCore
import Transport

private let packetSizes = [20, 64, 128, 244]
private let receipts: [UInt16] = [0, 1, 2, 3, 4, 8, 12, 0]
private let dataMaxSizes = [64, 256, 1024, 4096]
private let commandMaxSizes = [256, 512, 128, 64]
/// The longest firmware (2,044 bytes) and init packet (200) an input can choose, and the CRC-32 of
/// their every prefix, made once: a shorter one is a prefix of these, and making them for every
/// input (a generic CRC call a byte) took two fifths of the target's time.
private let longestFirmware = exchangeBytes(count: 4 * (1 + 255 * 2), seed: 0x9E37_79B9_7F4A_7C15)
private let longestInitPacket = exchangeBytes(count: 200, seed: 0x2545_F491_4F6C_DD1D)
private let longestFirmwareCRCs = prefixCRCs(longestFirmware)
private let longestInitPacketCRCs = prefixCRCs(longestInitPacket)

/// The transfer driver of NordicTransferExchange: the core, the bootloader model, the virtual link
/// between them and what the core was told. Its moves are in TransferExchange+Moves.swift, the
/// checks of each event in TransferExchange+Checks.swift.
struct TransferExchange: Exchange {
    let initPacket: [UInt8]
    let firmware: [UInt8]
    /// CRC-32 of every prefix of the init packet and of the firmware (index: its length).
    let initPacketCRCs: [UInt32]
    let firmwareCRCs: [UInt32]
    let honestTail: Bool
    let acceptFirst: Bool
    let firstPacketSize: Int
    var core: NordicTransferCore
    var device: Bootloader
    var now = MonotonicInstant.zero
    var packetSize: Int
    var linkUp = true
    /// The core asked for a new link (`reconnect`).
    var awaitingLink = false
    /// Control Point writes the bootloader has not handled, oldest first.
    var controlPoint: [[UInt8]] = []
    /// Packet batches written and not yet taken by the link, oldest first.
    var batches: [[[UInt8]]] = []
    /// PRNs the bootloader sends ahead of its next Control Point answer (late).
    var heldPRNs: [[UInt8]] = []
    var lastNotification: [UInt8] = []
    /// What the core was told: the max sizes of the Selects it took, the offsets reported with the right CRC.
    var givenMaxSize: [NordicObjectType: Int] = [:]
    var rightOffsets: [NordicObjectType: Set<Int>] = [.command: [0], .data: [0]]
    var lastBatchEnd: [NordicObjectType: Int] = [:]
    /// The core saw its Execute of the init packet answered with success.
    var initPacketExecuted = false
    var finished = false

    init(options input: inout FuzzInput) {
        let link = input.byte()
        let words = input.byte()
        let datLength = input.byte()
        let device = input.byte()
        firstPacketSize = packetSizes[Int(link & 3)]
        packetSize = firstPacketSize
        honestTail = link & 0x80 == 0
        acceptFirst = device & 0x20 == 0
        firmware = Array(longestFirmware.prefix(4 * (1 + Int(words) * 2)))
        initPacket = Array(longestInitPacket.prefix(1 + Int(datLength) % 200))
        firmwareCRCs = Array(longestFirmwareCRCs.prefix(firmware.count + 1))
        initPacketCRCs = Array(longestInitPacketCRCs.prefix(initPacket.count + 1))
        let configuration = NordicTransferConfiguration(packetSize: firstPacketSize,
                                                        packetReceiptNotification: receipts[Int(link >> 2 & 7)],
                                                        retriesPerObject: Int(link >> 5 & 3))
        core = NordicTransferCore(initPacket: initPacket, firmware: firmware, configuration: configuration)
        self.device = Bootloader(initPacket: initPacket, firmware: firmware, commandMax: commandMaxSizes[Int(device >> 2 & 3)],
                                 dataMax: dataMaxSizes[Int(device & 3)], keepsProgress: device & 0x10 != 0)
    }

    var nextDeadline: MonotonicInstant? { core.nextDeadline }

    mutating func start() { feed(.start) }

    mutating func timerFired() { feed(.timerFired) }

    /// The link takes the next batch, else the bootloader answers the next request, else time passes.
    mutating func honestStep() {
        if awaitingLink {
            restore(packetSize: firstPacketSize)
        } else if !linkUp {
            silence()
        } else if !batches.isEmpty {
            deliver(batches.removeFirst())
        } else if !controlPoint.isEmpty {
            let answer = device.handle(controlPoint.removeFirst())
            answerControlPoint(answer)
            // After the final Execute the bootloader validates and resets.
            if device.validated && linkUp { loseLink() }
        } else {
            silence()
        }
    }

    /// The CRC-32 of the first `count` bytes of the init packet or the firmware (all of it past the end).
    func rightCRC(_ type: NordicObjectType, _ count: Int) -> UInt32 {
        let crcs = type == .command ? initPacketCRCs : firmwareCRCs
        return crcs[min(max(count, 0), crcs.count - 1)]
    }
}

/// CRC-32 of every prefix of `bytes`, index: the prefix's length.
private func prefixCRCs(_ bytes: [UInt8]) -> [UInt32] {
    var crc = CRC32()
    var crcs: [UInt32] = [0]
    crcs.reserveCapacity(bytes.count + 1)
    for byte in bytes {
        crc.update(CollectionOfOne(byte))
        crcs.append(crc.value)
    }
    return crcs
}
