import DFUCore
import DeviceSim
import Transport

/// One run of `kill-rerun` or `kill-resume`: a fresh virtual device from the run's seed served over
/// UDP on 127.0.0.1 (as `dfu sim --serve udp:` serves it, on the campaign's model clock) behind a
/// counting relay; the `dfu` binary flashing it (`dfu flash IMAGE --key KEY --device udp:… --json`,
/// a journal directory of the run's own) and killed with SIGKILL at the run's `KillPoint`; then the
/// update finished by the same command or by `dfu resume --json`, once more after an exit 6; then
/// the device's own state.
struct FlashKillRun {
    let scenario: Scenario
    let finish: ProcessDeath.Finish
    let run: Int
    let seed: UInt64
    let inputs: FlashInputs
    let files: ProcessInputs
    let timeScale: Double
    let hangGuard: Duration

    func perform() async throws(FaultsError) -> RunRecord {
        let text = "sim:seed=\(seed),timescale=\(timeScale)"
        let setup = try SimSetup(text, scenario: scenario.name, timeScale: timeScale)
        let point = KillPoint.draw(seed: seed)
        let killSwitch = KillSwitch()
        let watch = ActivationWatch(point, killSwitch: killSwitch)
        let server: VirtualDeviceUDPServer
        do throws(UDPServeError) {
            server = try await VirtualDeviceUDPServer.serve(setup.options, at: "127.0.0.1:0", clock: setup.clock,
                                                            observer: { watch.observe($0) })
        } catch {
            throw .setup("scenario \(scenario.name): cannot serve the device over UDP: \(error)")
        }
        var tripwire: UploadCounter.Tripwire?
        if case .transfer(let share) = point {
            tripwire = UploadCounter.Tripwire(bytes: Int(share * Double(inputs.image.count))) { killSwitch.fire() }
        }
        let counter = UploadCounter(tripwire: tripwire)
        let relay: UDPRelay
        do throws(FaultsError) {
            relay = try UDPRelay.start(to: server.localAddress, onUpload: { counter.add($0) })
        } catch {
            await server.stop()
            throw error
        }
        let home: StateHome
        do throws(FaultsError) { home = try StateHome.make() } catch {
            await relay.stop()
            await server.stop()
            throw error
        }
        let before = await server.snapshot
        let flash = ["flash", files.imagePath, "--key", files.keyPath, "--device", "udp:\(relay.address)", "--json"]

        let modelStart = setup.clock.now
        let wallStart = ContinuousClock.now
        let (attempts, failure) = await ChildRunner(files: files, home: home, hangGuard: hangGuard)
            .killThenFinish(flash, killSwitch: killSwitch, finish: finish, expectation: scenario.expectation)
        let modelEnd = setup.clock.now
        let wallEnd = ContinuousClock.now
        let final = await server.snapshot
        await relay.stop()
        await server.stop()
        home.remove()
        if let failure { throw failure }

        let previousHash = before.runningImage?.hash
        let device = DeviceVerdict(final, newHash: inputs.slotHash, newVersion: inputs.version, previousHash: previousHash)
        let facts = DeviceFacts(final, newHash: inputs.slotHash, newVersion: inputs.version, previousHash: previousHash)
        let outcome = ProcessDeathVerdict.judge(attempts, expectation: scenario.expectation, device: device)
        let violations = InvariantCheck.violations(attempts, device: facts, documented: scenario.expectation.documentedFailures)
        return RunRecord(run: run, seed: seed, device: text, faults: point.text + ProcessDeathVerdict.stage(attempts),
                         attempts: attempts, uploadedBytes: counter.total, imageBytes: inputs.image.count,
                         modelSeconds: modelStart.duration(to: modelEnd).seconds,
                         wallSeconds: (wallEnd - wallStart).seconds, outcome: outcome, violations: violations)
    }
}
