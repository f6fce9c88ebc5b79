import Transport

/// The transfer core's answers about objects: what a Select of the command or data object means
/// (fresh, resume inside, execute, create again, §3.4 with the §10 corrections), what a checksum
/// says, and what follows an executed object.
extension NordicTransferCore {
    // MARK: - The command object

    mutating func selectedCommand(_ info: NordicObjectInfo, now: MonotonicInstant, into actions: inout [Action]) {
        guard info.maxSize >= 1, info.maxSize <= Self.maxObjectSize else {
            violation(.unusableMaxSize(.command, info.maxSize), into: &actions)
            return
        }
        guard info.offset <= info.maxSize else {
            violation(.offsetBeyondObject(.command, offset: info.offset, limit: Int(info.maxSize)), into: &actions)
            return
        }
        let length = initPacket.bytes.count
        guard length <= Int(info.maxSize) else {
            fail(.initPacketTooLarge(size: length, maxSize: info.maxSize), into: &actions)
            return
        }
        let offset = Int(info.offset)
        currentObject = .command(length: length)
        if offset > 0, offset <= length, info.crc == initPacket.crc(upTo: offset) {
            if offset == length {
                send(.executeCommand(resumed: true), now: now, into: &actions)
            } else {
                ensurePRN(0, then: .streamCommand(from: offset), now: now, into: &actions)
            }
        } else {
            ensurePRN(0, then: .createCommand, now: now, into: &actions)
        }
    }

    /// The command object is small and held in RAM: anything but all of it, intact, is a retry
    /// with a new Create (§3.3 step 5).
    mutating func checkedCommand(_ checksum: NordicChecksum, now: MonotonicInstant, into actions: inout [Action]) {
        let length = initPacket.bytes.count
        guard Int(checksum.offset) <= sent else {
            violation(.offsetBeyondSent(offset: checksum.offset, sent: sent), into: &actions)
            return
        }
        if Int(checksum.offset) == length && checksum.crc == initPacket.crc(upTo: length) {
            send(.executeCommand(resumed: false), now: now, into: &actions)
            return
        }
        if checksum.crc != initPacket.crc(upTo: Int(checksum.offset)) {
            statistics.crcMismatches += 1
        } else {
            statistics.lossesDetected += 1
        }
        recreate(.command(length: length), now: now, into: &actions)
    }

    // MARK: - Data objects

    mutating func selectedData(_ info: NordicObjectInfo, now: MonotonicInstant, into actions: inout [Action]) {
        guard info.maxSize >= 4, info.maxSize <= Self.maxObjectSize, info.maxSize % 4 == 0 else {
            violation(.unusableMaxSize(.data, info.maxSize), into: &actions)
            return
        }
        let length = firmware.bytes.count
        guard Int(info.offset) <= length else {
            violation(.offsetBeyondObject(.data, offset: info.offset, limit: length), into: &actions)
            return
        }
        guard info.offset % 4 == 0 else {
            violation(.misalignedOffset(info.offset), into: &actions)
            return
        }
        dataObjectSize = Int(info.maxSize)
        let offset = Int(info.offset)
        guard info.crc == firmware.crc(upTo: offset) else {
            // Drop the partial object: an exact boundary means the previous one was not executed.
            statistics.crcMismatches += 1
            let object = dataObject(offset == 0 ? 0 : (offset - 1) / dataObjectSize)
            noteStartOffset(object.start)
            acknowledge(object.start, into: &actions)
            recreate(object, now: now, into: &actions)
            return
        }
        noteStartOffset(offset)
        acknowledge(offset, into: &actions)
        if offset == length {
            send(.executeData(dataObject((length - 1) / dataObjectSize), resumed: false), now: now, into: &actions)
        } else if offset % dataObjectSize != 0 {
            stream(dataObject(offset / dataObjectSize), from: offset, now: now, into: &actions)
        } else if offset > 0 {
            send(.executeData(dataObject(offset / dataObjectSize - 1), resumed: true), now: now, into: &actions)
        } else {
            send(.createData(dataObject(0)), now: now, into: &actions)
        }
    }

    /// The first Select of the data object says what the bootloader kept from an earlier run;
    /// later ones (after a link loss) say what this transfer sent.
    mutating func noteStartOffset(_ held: Int) {
        guard !dataSelected else { return }
        dataSelected = true
        progress.startOffset = UInt64(held)
    }

    /// A PRN or the answer to Calculate Checksum, for `object`.
    mutating func checkedData(_ checksum: NordicChecksum, object: NordicTransferObject, afterMissingPRN: Bool,
                                      now: MonotonicInstant, into actions: inout [Action]) {
        let offset = Int(checksum.offset)
        guard offset <= max(sent, sentHighWater), offset <= object.end else {
            violation(.offsetBeyondSent(offset: checksum.offset, sent: sent), into: &actions)
            return
        }
        guard offset >= object.start else {
            violation(.offsetBeforeObject(offset: checksum.offset, objectStart: object.start), into: &actions)
            return
        }
        // Fewer bytes than written: the bootloader dropped packets (its buffers were full). From now
        // on one packet per PRN. Packets after a dropped one were appended in the wrong place, so
        // only a matching CRC lets the object continue from the device's offset.
        let lost = offset < sent
        if lost {
            statistics.lossesDetected += 1
            dataPRN = 1
        }
        guard checksum.crc == firmware.crc(upTo: offset) else {
            statistics.crcMismatches += 1
            // Every byte there but the CRC wrong: packets arrived in another order (BlueZ spreads
            // writes over several ATT bearers with EATT) or corrupted. One packet per receipt from
            // now on, so none can overtake another.
            dataPRN = 1
            recreate(object, alreadySpent: afterMissingPRN, now: now, into: &actions)
            return
        }
        if offset > sent {
            // Late packets from before a resend arrived, with our CRC: continue after them.
            statistics.lossesDetected += 1
            sent = offset
        }
        acknowledge(offset, into: &actions)
        if offset == object.end {
            send(.executeData(object, resumed: false), now: now, into: &actions)
            return
        }
        if !lost && !afterMissingPRN {
            sendBatch(object, now: now, into: &actions)
            return
        }
        // Continue from the device's offset; Set PRN restarts its counter with our batches. A
        // missing PRN already spent this failure.
        if !afterMissingPRN { guard spendRetry(object, into: &actions) else { return } }
        ensurePRN(nil, then: .streamData(object, from: offset), now: now, into: &actions)
    }

    mutating func executed(_ object: NordicTransferObject, now: MonotonicInstant, into actions: inout [Action]) {
        acknowledge(object.end, into: &actions)
        if object.end >= firmware.bytes.count {
            complete(.validated, into: &actions)
        } else {
            send(.createData(dataObject(object.index + 1)), now: now, into: &actions)
        }
    }

    func dataObject(_ index: Int) -> NordicTransferObject {
        .data(index, maxSize: dataObjectSize, imageLength: firmware.bytes.count)
    }
}
