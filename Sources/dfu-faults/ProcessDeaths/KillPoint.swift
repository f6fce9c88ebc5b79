import DeviceSim

/// Where a process-death run kills the `dfu` it started (SIGKILL), drawn from the run's seed like
/// the `@random` fault points: mostly during the transfer, now and then at a step of the
/// activation, so that a death between the last chunk and the confirmation is covered too.
///
/// Every point is seen from outside the process, where it is exact: the image bytes the host has
/// sent (counted on the wire, `UDPRelay`), or what the device model has just been asked or done.
enum KillPoint: Sendable, Equatable {
    /// Once the host has sent this share (5–95 %) of the image in upload requests (SMP) or Packet
    /// writes of the firmware (Nordic).
    case transfer(share: Double)
    /// The device wrote the upload's last byte: before the host reads its answer.
    case uploaded
    /// The device got the request that marks the new image for its test boot.
    case marking
    /// The device began its reset: dfu dies in its reboot wait, while MCUboot swaps.
    case resetting
    /// The device, back on the new image (on test), got the request that confirms it.
    case confirming
    /// A Nordic bootloader is about to get the last object's Execute, which it acts on by starting
    /// the new application: dfu dies before it reads the answer (over BLE, where the application
    /// can still be reached).
    case lastExecute
    /// The device's outage began (`outage@…`): dfu dies waiting on a device that hears nothing.
    case outage
    /// The device dropped the link (`disconnect@…`): dfu dies as it learns of it, before it reconnects.
    case linkDrop

    /// The activation steps, in the order an update reaches them.
    static let activationSteps: [KillPoint] = [.uploaded, .marking, .resetting, .confirming]

    /// The point of the run with `seed`: in 6 runs of 10 a share of the transfer (`NordicFaults`'
    /// draw 0), else one of the four activation steps. `transferOnly` (the Nordic serial
    /// bootloader, whose application reads nothing on the line once it runs) draws only shares.
    static func draw(seed: UInt64, transferOnly: Bool = false) -> KillPoint {
        let share = NordicFaults.share(seed: seed, index: 0)
        if transferOnly { return .transfer(share: share) }
        let kind = SplitMix64.value(seed &+ kindDraw &* 0x9E37_79B9_7F4A_7C15)
        return kind % 10 < 6 ? .transfer(share: share) : activationSteps[Int(kind / 10 % 4)]
    }

    /// A Nordic run's point over BLE: in 6 runs of 10 a share of the firmware, as `draw` draws
    /// them, else the last Execute.
    static func drawNordic(seed: UInt64) -> KillPoint {
        let share = NordicFaults.share(seed: seed, index: 0)
        let kind = SplitMix64.value(seed &+ kindDraw &* 0x9E37_79B9_7F4A_7C15)
        return kind % 10 < 6 ? .transfer(share: share) : .lastExecute
    }

    /// The point at which the command that takes a killed update up (`dfu resume`) is killed in
    /// its turn (`ProcessDeath.Also.finisherKilled`): drawn as `draw` draws, from other draws of
    /// the same seed (share 1, kind draw `finisherKindDraw`); a share is then one of what is left
    /// to send (`KillSchedule`).
    static func drawFinisher(seed: UInt64, transferOnly: Bool = false) -> KillPoint {
        let share = NordicFaults.share(seed: seed, index: 1)
        if transferOnly { return .transfer(share: share) }
        let kind = SplitMix64.value(seed &+ finisherKindDraw &* 0x9E37_79B9_7F4A_7C15)
        return kind % 10 < 6 ? .transfer(share: share) : activationSteps[Int(kind / 10 % 4)]
    }

    /// A share drawn as `NordicFaults.share` draws one (5–95 %), moved linearly into `range`: a
    /// first kill that must leave room after it (the rest of a transfer, a later device reset).
    static func share(seed: UInt64, index: Int, within range: ClosedRange<Double>) -> Double {
        let drawn = NordicFaults.share(seed: seed, index: index)
        return range.lowerBound + (drawn - 0.05) / 0.90 * (range.upperBound - range.lowerBound)
    }

    /// The draw that picks the kind: 67 is the first whose default seeds (1000…1009, the ten runs
    /// of `--runs 20`) reach each activation step and whose first two (`make test`'s `--runs 4`)
    /// kill once in the transfer and once in the activation.
    static let kindDraw: UInt64 = 67
    /// The finisher's: 104 is the first after 67 whose default seeds reach each activation step
    /// and whose first two kill the finisher once in the transfer and once in the activation.
    static let finisherKindDraw: UInt64 = 104

    /// For the `faults` column: `SIGKILL@43.21%`, `SIGKILL@resetting`.
    var text: String {
        switch self {
        case .transfer(let share): return "SIGKILL@\(Self.percent(share))"
        case .uploaded: return "SIGKILL@uploaded"
        case .marking: return "SIGKILL@marking"
        case .resetting: return "SIGKILL@resetting"
        case .confirming: return "SIGKILL@confirming"
        case .lastExecute: return "SIGKILL@last-execute"
        case .outage: return "SIGKILL@outage"
        case .linkDrop: return "SIGKILL@link-drop"
        }
    }

    /// Two decimals, as `FaultSpec` writes a drawn point.
    static func percent(_ share: Double) -> String {
        let hundredths = Int((share * 10_000).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)%"
    }
}
