import DeviceSim

/// The power cuts of one Nordic scenario run, whatever link serves the device: mid-transfer, once
/// the bootloader has been sent a share of the firmware drawn from the seed (counted over the
/// Packet writes or Write Objects, init packet first, so it lands inside the firmware), or as the
/// final Execute arrives. Armed as the run's `UploadCounter` tripwires; `powerCycle` is the served
/// device's own way to cut the power and restore it.
struct NordicPowerCuts {
    /// The cut, when the scenario has one: whether it fired is part of the verdict.
    private(set) var trigger: PowerCycleTrigger?
    /// What the faults column shows of them.
    private(set) var drawn: [String] = []
    private var tripwire: UploadCounter.Tripwire?
    private var atExecute: UploadCounter.ExecuteTripwire?

    init(_ faults: NordicFaults, seed: UInt64, inputs: NordicInputs, powerCycle: @escaping @Sendable () async -> Void) {
        if faults.powerCycle {
            let bytes = inputs.initPacketBytes + Int(NordicFaults.share(seed: seed, index: 0) * Double(inputs.firmwareBytes))
            let cycle = PowerCycleTrigger(powerCycle: powerCycle)
            trigger = cycle
            tripwire = UploadCounter.Tripwire(bytes: bytes) { cycle.fire() }
            drawn.append("power-cycle@\(bytes)B")
        }
        if faults.powerCycleAtActivation {
            // Once every Packet byte went out, the next Execute is the final one.
            let cycle = PowerCycleTrigger(powerCycle: powerCycle)
            trigger = cycle
            atExecute = UploadCounter.ExecuteTripwire(bytes: inputs.initPacketBytes + inputs.firmwareBytes) {
                await cycle.fireNow()
            }
            drawn.append("power-cycle@final-execute")
        }
    }

    /// The run's counter, with the cuts armed.
    func counter() -> UploadCounter {
        UploadCounter(tripwire: tripwire, executeTripwire: atExecute)
    }

    /// A scenario whose cut never fired proves nothing.
    var missed: Bool { trigger.map { !$0.hasFired } ?? false }
}
