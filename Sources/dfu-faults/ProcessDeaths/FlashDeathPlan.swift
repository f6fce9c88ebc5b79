/// What befalls one killed `dfu flash` run, drawn from its seed: the kill of each `dfu` in turn
/// (`KillSchedule`), and the `fault=` of the device's `sim:` options, if any.
///
/// - nothing: one kill, `KillPoint.draw` (in the transfer, or at a step of the activation).
/// - `finisherKilled`: the first kill in the transfer, between 5 % and 80 % (so the requests the
///   dying `dfu` left in flight cannot end the upload); the first `dfu resume` killed at
///   `KillPoint.drawFinisher` (a share of what is left, or a step of the activation).
/// - `deviceResetsAtKill`: the device resets after a chunk at a random point (`reboot@random`),
///   and `dfu` is killed as it begins to (`KillPoint.resetting`).
/// - `deviceResetsInFinish`: the kill in the transfer between 5 % and 60 %; the device resets
///   once it holds 15–35 % more of the image (`reboot@N%`), past anything the dying `dfu` sent
///   (its window is four 1,405-byte requests, 11.3 %), so in the command that finishes.
/// - `outageAtKill`: the device stops hearing and answering at a random point of the transfer for
///   `outageSeconds` of model time drawn from the seed (10–40 s: 0.5–2 s of real time at the
///   campaign's 0.05, longer than the next `dfu` takes to start), and `dfu` is killed as it does.
/// - `linkDropAtKill`: the device drops the link at a random point (`disconnect@random`), and `dfu`
///   is killed as it does.
/// - `killedAtLastExecute`: one kill, as the Nordic bootloader gets the last Execute.
/// - `powerCutAtKill`: one kill in the transfer, between 5 % and 95 %; the device's power cut
///   with it (by the run, not a `fault=`).
/// `transferOnly`: the Nordic serial bootloader, killed in the transfer only (see `NordicKillRun`);
/// `nordicOverBLE`: a Nordic device over BlueZ, whose one kill may also come at the last Execute
/// (`KillPoint.drawNordic`).
struct FlashDeathPlan: Equatable {
    let kills: [KillPoint]
    let deviceFault: String?

    init(_ also: ProcessDeath.Also, seed: UInt64, transferOnly: Bool = false, nordicOverBLE: Bool = false) {
        switch also {
        case .nothing:
            kills = [nordicOverBLE ? KillPoint.drawNordic(seed: seed) : KillPoint.draw(seed: seed, transferOnly: transferOnly)]
            deviceFault = nil
        case .finisherKilled:
            kills = [.transfer(share: KillPoint.share(seed: seed, index: 0, within: 0.05 ... 0.80)),
                     KillPoint.drawFinisher(seed: seed, transferOnly: transferOnly)]
            deviceFault = nil
        case .deviceResetsAtKill:
            kills = [.resetting]
            deviceFault = "reboot@random"
        case .deviceResetsInFinish:
            let kill = KillPoint.share(seed: seed, index: 0, within: 0.05 ... 0.60)
            let reset = kill + KillPoint.share(seed: seed, index: 1, within: 0.15 ... 0.35)
            kills = [.transfer(share: kill)]
            deviceFault = "reboot@" + KillPoint.percent(reset)
        case .outageAtKill:
            kills = [.outage]
            deviceFault = "outage@random:\(Self.outageMilliseconds(seed: seed))ms"
        case .linkDropAtKill:
            kills = [.linkDrop]
            deviceFault = "disconnect@random"
        case .killedAtLastExecute:
            kills = [.lastExecute]
            deviceFault = nil
        case .powerCutAtKill:
            kills = [.transfer(share: KillPoint.share(seed: seed, index: 0, within: 0.05 ... 0.95))]
            deviceFault = nil
        }
    }

    /// The outage's length in model time, whole milliseconds: 10–40 s, drawn from the seed's
    /// second share.
    static func outageMilliseconds(seed: UInt64) -> Int {
        Int((KillPoint.share(seed: seed, index: 1, within: 10 ... 40) * 1000).rounded())
    }
}
