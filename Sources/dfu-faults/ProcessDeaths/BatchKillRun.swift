import DFUCore
import DeviceSim
import Transport

/// One run of `batch-kill`: `devices` fresh virtual devices from the run's seed, each served over
/// UDP on 127.0.0.1 behind a counting relay; `dfu batch PLAN --key KEY --parallel N --json` (a
/// journal directory of the run's own) killed with SIGKILL once one device is done and another has
/// been sent a share of its image drawn from the seed (`BatchKillTrigger`); then the same `dfu
/// batch` again, once more after an exit 6 (`BatchKill`); in `batch-kill-twice` that rerun is killed
/// too once the devices have been sent a second share of an image drawn from the seed, and a third
/// batch must finish. The run is the batch: it completes when
/// every device runs the new image, confirmed, and breaks an invariant when any device does.
struct BatchKillRun {
    let scenario: Scenario
    let devices: Int
    let parallel: Int
    /// The rerun is killed too, once the devices have been sent a second share of an image.
    var killedAgain = false
    let run: Int
    let seed: UInt64
    let inputs: FlashInputs
    let files: ProcessInputs
    let timeScale: Double
    let hangGuard: Duration

    /// One device of the batch and what serves it.
    private struct Served {
        let server: VirtualDeviceUDPServer
        let relay: UDPRelay
        let before: VirtualDevice
    }

    func perform() async throws(FaultsError) -> RunRecord {
        let text = "sim:seed=\(seed),timescale=\(timeScale)"
        let share = NordicFaults.share(seed: seed, index: 0)
        let killSwitch = KillSwitch()
        let rerunShare = NordicFaults.share(seed: seed, index: 1)
        let rerunKill = killedAgain ? KillSwitch() : nil
        let trigger = BatchKillTrigger(devices: devices, threshold: Int(share * Double(inputs.image.count)),
                                       imageBytes: inputs.image.count, killSwitch: killSwitch,
                                       rerunKill: rerunKill.map { ($0, Int(rerunShare * Double(inputs.image.count))) })
        var served: [Served] = []
        var clock: LinkClock?
        var failure: FaultsError?
        do throws(FaultsError) {
            for index in 0 ..< devices {
                let setup = try SimSetup(text, scenario: scenario.name, timeScale: timeScale)
                clock = clock ?? setup.clock
                let server: VirtualDeviceUDPServer
                do throws(UDPServeError) {
                    server = try await VirtualDeviceUDPServer.serve(setup.options, at: "127.0.0.1:0", clock: setup.clock) { event in
                        if case .uploadStarted = event { trigger.uploadStarted(on: index) }
                    }
                } catch {
                    throw .setup("scenario \(scenario.name): cannot serve device \(index + 1) over UDP: \(error)")
                }
                let relay: UDPRelay
                do throws(FaultsError) {
                    relay = try UDPRelay.start(to: server.localAddress) { bytes in trigger.sent(bytes, to: index) }
                } catch {
                    await server.stop()
                    throw error
                }
                served.append(Served(server: server, relay: relay, before: await server.snapshot))
            }
        } catch {
            failure = error
        }
        let home: StateHome?
        do throws(FaultsError) { home = try StateHome.make() } catch {
            home = nil
            failure = failure ?? error
        }
        guard let home, let clock, failure == nil else {
            await stop(served)
            home?.remove()
            throw failure ?? .setup("scenario \(scenario.name): no device served")
        }

        let names = served.map { "udp:\($0.relay.address)" }
        let modelStart = clock.now
        let wallStart = ContinuousClock.now
        var attempts: [AttemptRecord] = []
        do throws(FaultsError) {
            attempts = try await BatchKill.run(devices: names, image: files.imagePath, key: files.keyPath, parallel: parallel, home: home,
                                               runner: ChildRunner(files: files, home: home, hangGuard: hangGuard),
                                               trigger: trigger, killSwitch: killSwitch, rerunKill: rerunKill,
                                               expectation: scenario.expectation)
        } catch {
            failure = error
        }
        let modelEnd = clock.now
        let wallEnd = ContinuousClock.now
        var finals: [VirtualDevice] = []
        for device in served { finals.append(await device.server.snapshot) }
        await stop(served)
        home.remove()
        if let failure { throw failure }

        let devices = finals.enumerated().map { index, final in
            let previousHash = served[index].before.runningImage?.hash
            return (verdict: DeviceVerdict(final, newHash: inputs.slotHash, newVersion: inputs.version, previousHash: previousHash),
                    facts: DeviceFacts(final, newHash: inputs.slotHash, newVersion: inputs.version, previousHash: previousHash))
        }
        let (outcome, violations) = BatchKill.judge(attempts, devices: devices, atKill: trigger.atKill, kills: killedAgain ? 2 : 1,
                                                    expectation: scenario.expectation)
        let faults = BatchKill.describe(share: share, trigger.atKill,
                                        rerun: killedAgain ? (rerunShare, trigger.rerunKillFired) : nil)
        return RunRecord(run: run, seed: seed, device: "\(self.devices) × \(text)", faults: faults,
                         attempts: attempts, uploadedBytes: trigger.sent.reduce(0, +), imageBytes: self.devices * inputs.image.count,
                         modelSeconds: modelStart.duration(to: modelEnd).seconds, wallSeconds: (wallEnd - wallStart).seconds,
                         outcome: outcome, violations: violations)
    }

    private func stop(_ served: [Served]) async {
        for device in served {
            await device.relay.stop()
            await device.server.stop()
        }
    }
}
