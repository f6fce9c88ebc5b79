import DeviceSim

/// What a Nordic scenario does to the virtual nRF52 (`protocol=nordic`). The link drop and the
/// power cycle are the campaign's doing (a scheduled `LinkFault`, `powerCycle()`), not `sim:`
/// options; their points are drawn from the run's seed like the SMP `@random` points.
struct NordicFaults: Sendable {
    /// `sdk=`: 17 forgets its data progress when the link goes, 15 keeps it in RAM.
    var sdk = 17
    /// Drop the bootloader link once, after a random share of the firmware has been written.
    var linkDrop = false
    /// Packet writes the bootloader drops as if its buffers were full (`prn_drop=`), at random.
    var droppedPackets = 0
    /// Power-cycle the device once, when the transfer has acknowledged a random share.
    var powerCycle = false
    /// The bootloader trusts another key than the one that signed the package.
    var otherBootloaderKey = false
    /// The bootloader advertises at an address of its own, unrelated to the application's
    /// (`bl_address=random`): found by the name dfu gave it.
    var bootloaderElsewhere = false
    /// The answer to one Calculate Checksum of a data object, drawn at random, damaged, lost or
    /// sent twice (`cp_fault=KIND@checksum:N`).
    var checksumAnswer: NordicNotificationFault.Kind?
    /// The device loses power as the final Execute (the one that activates) arrives.
    var powerCycleAtActivation = false
    /// Over serial (`serial-nordic-*`): the bootloader's USB CDC ACM transport, whose port vanishes
    /// while it resets, rather than a UART; `linkDrop` is then the bootloader dropping the line
    /// (`drop=packet:N`): the port goes and comes back.
    var usb = false

    /// The Calculate Checksum answer to damage: one of a data object's (the first answer is the
    /// init packet's), between 5 % and 95 % of `objects` data objects, never the last one.
    static func checksumOrdinal(seed: UInt64, objects: Int) -> Int {
        let object = Int((share(seed: seed, index: 0) * Double(objects)).rounded())
        return 1 + min(max(object, 1), max(1, objects - 1))
    }

    /// The device option that damages the Calculate Checksum answer of the seed's data object
    /// (`checksumOrdinal`, over objects of `NordicScenarioRun.dataObjectSize` bytes), if any.
    func checksumFaultItem(seed: UInt64, firmwareBytes: Int) -> String? {
        guard let checksumAnswer else { return nil }
        let objects = (firmwareBytes + NordicScenarioRun.dataObjectSize - 1) / NordicScenarioRun.dataObjectSize
        return "cp_fault=\(checksumAnswer.rawValue)@checksum:\(Self.checksumOrdinal(seed: seed, objects: objects))"
    }

    /// A share of the transfer between 5 % and 95 %, drawn as `FaultSpec` draws `@random`.
    static func share(seed: UInt64, index: Int) -> Double {
        let draw = SplitMix64.value(seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
        return 0.05 + Double(draw % 9001) / 100 / 100
    }

    /// The Packet writes to drop: `droppedPackets` distinct numbers between 5 % and 95 % of
    /// `packetWrites`, in order.
    func droppedWrites(seed: UInt64, packetWrites: Int) -> [Int] {
        var writes: Set<Int> = []
        var index = 0
        while writes.count < droppedPackets, index < 64 {
            writes.insert(max(1, Int((Self.share(seed: seed, index: index) * Double(packetWrites)).rounded())))
            index += 1
        }
        return writes.sorted()
    }

    /// For `--list`: `sdk=17, link drop@random`.
    var text: String {
        var parts = ["sdk=\(sdk)"]
        if usb { parts.append("usb") }
        if linkDrop { parts.append("link drop@random") }
        if droppedPackets > 0 { parts.append("prn_drop=\(droppedPackets)×random") }
        if powerCycle { parts.append("power cycle@random") }
        if otherBootloaderKey { parts.append("key=other") }
        if bootloaderElsewhere { parts.append("bl_address=random") }
        if let checksumAnswer { parts.append("cp_fault=\(checksumAnswer.rawValue)@checksum:random") }
        if powerCycleAtActivation { parts.append("power cycle@final Execute") }
        return parts.joined(separator: ", ")
    }
}
