@testable import DFUCore

/// An nRF5 SDK secure bootloader, reduced to its transfer (Tests' NordicFakeBootloader): the
/// honest answers. A lost link keeps what it received (SDK 15) or goes back to what it executed
/// (SDK 16 and 17).
struct Bootloader {
    let initPacket: [UInt8]
    let firmware: [UInt8]
    let commandMax: Int
    let dataMax: Int
    let keepsProgress: Bool
    var selected = NordicObjectType.command
    var command: [UInt8] = []
    var commandSize = 0
    var commandExecuted = false
    var data: [UInt8] = []
    /// End of the last executed data object, and of the one created.
    var executed = 0
    /// CRC-32 of `data`, and of its first `executed` bytes (which never change: data only grows
    /// past them or goes back to them), kept a packet at a time rather than a byte at a time.
    var dataCRC: UInt32 = 0
    var executedCRC: UInt32 = 0
    var objectEnd = 0
    var prn: UInt16 = 0
    var sincePRN = 0
    var validated = false

    init(initPacket: [UInt8], firmware: [UInt8], commandMax: Int, dataMax: Int, keepsProgress: Bool) {
        self.initPacket = initPacket
        self.firmware = firmware
        self.commandMax = commandMax
        self.dataMax = dataMax
        self.keepsProgress = keepsProgress
    }

    /// What the selected object holds: its length and CRC.
    var held: (count: Int, crc: UInt32) {
        selected == .command ? (command.count, CRC32.checksum(command)) : (data.count, dataCRC)
    }

    /// The CRC of the first `count` bytes the selected object holds (all of them past the end).
    func heldCRC(upTo count: Int) -> UInt32 {
        if selected == .command { return CRC32.checksum(command.prefix(count)) }
        return count >= data.count ? dataCRC : CRC32.checksum(data.prefix(max(count, 0)))
    }

    mutating func handle(_ bytes: [UInt8]) -> [UInt8] {
        guard let request = NordicRequest(decoding: bytes) else {
            return [NordicOpcode.responseCode, bytes.first ?? 0, NordicResultCode.opcodeNotSupported.rawValue]
        }
        let opcode = request.opcode
        switch request {
        case .select(let type):
            selected = type
            let info = NordicObjectInfo(maxSize: UInt32(type == .command ? commandMax : dataMax), offset: UInt32(held.count),
                                        crc: held.crc)
            return NordicResponse(opcode: opcode, outcome: .success(.objectInfo(info))).encoded
        case .create(let type, let size):
            selected = type
            sincePRN = 0
            if type == .command {
                guard size <= commandMax else { return refuse(opcode, .insufficientResources) }
                command = []
                commandSize = Int(size)
                commandExecuted = false
            } else {
                guard size > 0, size <= dataMax, commandExecuted else { return refuse(opcode, .insufficientResources) }
                goBackToExecuted()
                objectEnd = executed + Int(size)
            }
            return success(opcode)
        case .setPRN(let value):
            prn = value
            sincePRN = 0
            return success(opcode)
        case .calculateChecksum:
            return checksum()
        case .execute:
            if selected == .command {
                guard !command.isEmpty, command.count == commandSize else { return refuse(opcode, .operationNotPermitted) }
                guard command == initPacket else { return refuse(opcode, .invalidObject) }
                commandExecuted = true
                return success(opcode)
            }
            guard commandExecuted, data.count == objectEnd, objectEnd > executed else { return refuse(opcode, .operationNotPermitted) }
            executed = objectEnd
            executedCRC = dataCRC
            if executed == firmware.count {
                guard data == firmware else { return refuse(opcode, .invalidObject) }
                validated = true
            }
            return success(opcode)
        case .abort:
            return success(opcode)
        }
    }

    /// One packet; the notification it makes due (a PRN, or an object overflowed), if any.
    mutating func packet(_ bytes: [UInt8]) -> [UInt8]? {
        if selected == .command {
            guard command.count + bytes.count <= commandSize else { return nil }
            command += bytes
            return nil
        }
        guard data.count + bytes.count <= objectEnd else { return refuse(.calculateChecksum, .invalidParameter) }
        var crc = CRC32(continuing: dataCRC)
        crc.update(bytes)
        dataCRC = crc.value
        data += bytes
        guard prn > 0 else { return nil }
        sincePRN += 1
        guard sincePRN >= Int(prn) else { return nil }
        sincePRN = 0
        return checksum()
    }

    mutating func linkLost() {
        prn = 0
        sincePRN = 0
        guard !keepsProgress else { return }
        goBackToExecuted()
        objectEnd = executed
        if !commandExecuted { command = [] }
    }

    /// Drops the data past the last executed object.
    mutating func goBackToExecuted() {
        guard executed < data.count else { return }
        data.removeSubrange(executed...)
        dataCRC = executedCRC
    }

    func checksum() -> [UInt8] {
        NordicResponse(opcode: .calculateChecksum,
                       outcome: .success(.checksum(NordicChecksum(offset: UInt32(held.count), crc: held.crc)))).encoded
    }

    func success(_ opcode: NordicOpcode) -> [UInt8] {
        NordicResponse(opcode: opcode, outcome: .success(.none)).encoded
    }

    func refuse(_ opcode: NordicOpcode, _ result: NordicResultCode) -> [UInt8] {
        NordicResponse(opcode: opcode, outcome: .failure(NordicRemoteError(result: result))).encoded
    }
}
