import DFUCore
import DeviceSim
import SerialTransport
import Transport

/// One run of `nordic-batch-kill`: `devices` fresh virtual nRF52s from the run's seed, each in its
/// bootloader on a pseudo-terminal of its own as `dfu sim --serve serial:PATH --protocol nordic`
/// serves it (as `NordicKillRun`); `dfu batch PLAN --key KEY --parallel N --json` over them (the
/// package, `serial:PATH,baud=…` devices) killed with SIGKILL once one device is done and another
/// has been sent a share of its firmware drawn from the seed (`BatchKillTrigger`, the bytes
/// counted as each bootloader receives them); then the same `dfu batch` again (`BatchKill`); in
/// `nordic-batch-kill-twice` that rerun is killed too, and a third batch must finish.
///
/// Before the rerun, every device that runs its application is put back in DFU mode (a power
/// cycle with its DFU button held), as an operator must for a serial-only board: its application
/// reads nothing on the line, so a rerun could not ask it whether it runs the package. The
/// devices still in their bootloader are left as the kill left them.
struct NordicBatchKillRun {
    let scenario: Scenario
    let devices: Int
    let parallel: Int
    /// The rerun is killed too, once the devices have been sent a second share of a package.
    var killedAgain = false
    let run: Int
    let seed: UInt64
    let inputs: NordicInputs
    let files: ProcessInputs
    let timeScale: Double
    let hangGuard: Duration

    /// The bootloader stays in DFU mode however long the children take to start: their start-up
    /// is real time, 20 times longer in the model's, and the batch reaches its last devices late.
    static let inactivity = "off"

    func perform() async throws(FaultsError) -> RunRecord {
        let text = "sim:protocol=nordic,seed=\(seed),inactivity=\(Self.inactivity),timescale=\(timeScale)"
        let share = NordicFaults.share(seed: seed, index: 0)
        let killSwitch = KillSwitch()
        let total = inputs.initPacketBytes + inputs.firmwareBytes
        let rerunShare = NordicFaults.share(seed: seed, index: 1)
        let rerunKill = killedAgain ? KillSwitch() : nil
        let trigger = BatchKillTrigger(devices: devices, threshold: inputs.initPacketBytes + Int(share * Double(inputs.firmwareBytes)),
                                       imageBytes: total, killSwitch: killSwitch,
                                       rerunKill: rerunKill.map { ($0, Int(rerunShare * Double(total))) })
        let home = try StateHome.make()
        var servers: [NordicSerialServer] = []
        var clock: LinkClock?
        var failure: FaultsError?
        do throws(FaultsError) {
            for index in 0 ..< devices {
                let setup = try SimSetup(text, scenario: scenario.name, timeScale: timeScale)
                clock = clock ?? setup.clock
                servers.append(try await serve(setup, at: home.path + "/tty\(index + 1)", trigger: trigger, index: index))
            }
        } catch {
            failure = error
        }
        guard let clock, failure == nil else {
            for server in servers { await server.stop() }
            home.remove()
            throw failure ?? .setup("scenario \(scenario.name): no device served")
        }
        var previous: [UInt32] = []
        for server in servers { previous.append(await server.snapshot.applicationVersion) }
        let names = (1 ... devices).map { "serial:\(home.path)/tty\($0),baud=\(ServedDevice.serialBaud)" }

        let modelStart = clock.now
        let wallStart = ContinuousClock.now
        var attempts: [AttemptRecord] = []
        do throws(FaultsError) {
            attempts = try await BatchKill.run(devices: names, image: files.packagePath, key: files.nordicKeyPath, parallel: parallel,
                                               home: home, runner: ChildRunner(files: files, home: home, hangGuard: hangGuard),
                                               trigger: trigger, killSwitch: killSwitch, rerunKill: rerunKill,
                                               expectation: scenario.expectation,
                                               beforeRerun: { await NordicDFUMode.enter(servers, clock: clock) })
        } catch {
            failure = error
        }
        let modelEnd = clock.now
        let wallEnd = ContinuousClock.now
        var finals: [NordicVirtualDevice] = []
        for server in servers { finals.append(await NordicBootWait.settled(clock: clock) { await server.snapshot }) }
        for server in servers { await server.stop() }
        home.remove()
        if let failure { throw failure }

        let judged = finals.enumerated().map { index, final in
            (verdict: DeviceVerdict(nordic: final, newVersion: inputs.version, previousVersion: previous[index]),
             facts: DeviceFacts(nordic: final, newVersion: inputs.version, previousVersion: previous[index]))
        }
        let (outcome, violations) = BatchKill.judge(attempts, devices: judged, atKill: trigger.atKill, kills: killedAgain ? 2 : 1,
                                                    expectation: scenario.expectation)
        let faults = BatchKill.describe(share: share, trigger.atKill, rerun: killedAgain ? (rerunShare, trigger.rerunKillFired) : nil)
        return RunRecord(run: run, seed: seed, device: "\(devices) × \(text)", faults: faults,
                         attempts: attempts, uploadedBytes: trigger.sent.reduce(0, +), imageBytes: devices * total,
                         modelSeconds: modelStart.duration(to: modelEnd).seconds, wallSeconds: (wallEnd - wallStart).seconds,
                         outcome: outcome, violations: violations)
    }

    /// Device `index`'s bootloader on a pseudo-terminal linked at `path`, reporting to `trigger`
    /// the firmware it receives and each upload begun (a Create of the init packet's object).
    private func serve(_ setup: SimSetup, at path: String, trigger: BatchKillTrigger,
                       index: Int) async throws(FaultsError) -> NordicSerialServer {
        let configuration: NordicDeviceConfiguration
        do throws(SimOptionsError) {
            configuration = try setup.options.nordicDeviceConfiguration()
        } catch {
            throw SimSetup.serveFailed(scenario.name, error)
        }
        do throws(SimSerialPortError) {
            return try await NordicPTYServer.start(configuration, at: path, clock: setup.clock, observer: { event in
                switch event {
                case .received(.writeObject(let data)): trigger.sent(data.count, to: index)
                case .received(.controlPoint(.create(.command, _))): trigger.uploadStarted(on: index)
                default: break
                }
            })
        } catch {
            throw .setup("scenario \(scenario.name): cannot serve device \(index + 1) on a pseudo-terminal: \(error)")
        }
    }
}
