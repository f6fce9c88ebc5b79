/// The injected link drops (`NordicBootloaderConfiguration.linkDrops`): the bootloader answers as
/// usual, then closes the link, as a device whose radio gave up right after that answer. It stays
/// in DFU mode; what survives the drop is what survives any drop (`linkEnded`).
extension NordicBootloader {
    /// `actions` of one write, then `.dropLink` when that write reached a configured point.
    mutating func droppingLinkIfDue(after actions: [Action], request opcode: UInt8?) -> [Action] {
        guard resetCause == nil else { return actions }
        let drop: NordicLinkDrop
        switch opcode {
        case 0x01 where currentObject == .data && Self.succeeded(actions, opcode: 0x01):
            dataCreates += 1
            drop = .afterCreate(dataCreates)
        case 0x04 where currentObject == .data && Self.succeeded(actions, opcode: 0x04):
            dataExecutes += 1
            drop = .afterExecute(dataExecutes)
        case nil:
            drop = .afterPacket(packetWriteCount)
        default:
            return actions
        }
        guard configuration.linkDrops.contains(drop) else { return actions }
        linkEnded()
        return actions + [.dropLink(drop)]
    }

    private static func succeeded(_ actions: [Action], opcode: UInt8) -> Bool {
        actions.contains(.notify([responseCode, opcode, NordicDFUResult.success.code]))
    }
}
