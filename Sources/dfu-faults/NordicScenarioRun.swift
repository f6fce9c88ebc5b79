import DFUCore
import DeviceSim
import Transport

/// One run of a Nordic scenario: a fresh virtual nRF52 (`sim:protocol=nordic,…`) with the
/// scenario's faults drawn from `seed`, one whole update of the package as `dfu flash PKG.zip
/// --device sim:…` runs it (default deadlines, on the model clock) in memory or over the BlueZ
/// stand-in (`NordicLink`), a rerun when the scenario expects the first to fail, then the
/// device's own state.
struct NordicScenarioRun {
    let scenario: Scenario
    let faults: NordicFaults
    let run: Int
    let seed: UInt64
    let inputs: NordicInputs
    let timeScale: Double
    let hangGuard: Duration

    /// The bootloader's data object size (SDK 15–17: 4 KiB).
    static let dataObjectSize = 4096

    /// The bootloader's Packet writes carry MTU 247 − 3 bytes (`nordicBootloaderMaxMTU`).
    private var packetWrites: Int {
        let payload = SimOptions.nordicBootloaderMaxMTU - 3
        return (inputs.initPacketBytes + payload - 1) / payload + (inputs.firmwareBytes + payload - 1) / payload
    }

    func perform() async throws(FaultsError) -> RunRecord {
        let dropped = faults.droppedWrites(seed: seed, packetWrites: packetWrites)
        var items = ["protocol=nordic", "seed=\(seed)", "sdk=\(faults.sdk)"]
        if !dropped.isEmpty { items.append("prn_drop=" + dropped.map(String.init).joined(separator: "+")) }
        if faults.otherBootloaderKey { items.append("key=\(inputs.otherKeyPath)") }
        if faults.bootloaderElsewhere { items.append("bl_address=random") }
        if let item = faults.checksumFaultItem(seed: seed, firmwareBytes: inputs.firmwareBytes) { items.append(item) }
        items.append("timescale=\(timeScale)")
        let text = "sim:" + items.joined(separator: ",")
        let setup = try SimSetup(text, scenario: scenario.name, timeScale: timeScale)
        let (options, clock, connector) = (setup.options, setup.clock, setup.connector)
        let peripheral: VirtualNordicPeripheral
        do throws(SimOptionsError) {
            peripheral = try await VirtualNordicPeripheral.serve(options, on: connector)
        } catch {
            throw SimSetup.serveFailed(scenario.name, error)
        }
        let previousVersion = await peripheral.snapshot.applicationVersion

        var drawn = dropped.map { "drop-packet@\($0)" }
        if faults.linkDrop {
            // Counted over every write of the bootloader connection: the init packet and the
            // control point's few bytes come first, so this lands inside the firmware.
            let share = NordicFaults.share(seed: seed, index: 0)
            let bytes = inputs.initPacketBytes + Int(share * Double(inputs.firmwareBytes))
            await connector.scheduleFault(.dropAfterBytes(bytes), for: peripheral.bootloaderIdentity)
            drawn.append("link-drop@\(bytes)B")
        }
        let cuts = NordicPowerCuts(faults, seed: seed, inputs: inputs) { await peripheral.powerCycle() }
        drawn += cuts.drawn
        let counter = cuts.counter()
        let link = try await NordicLink.serve(peripheral, on: connector, over: scenario.link, scenario: scenario.name)
        let target = UpdateEngine.Target(connector: CountingConnector(inner: link.connector, counter: counter),
                                         peer: peripheral.applicationIdentity)
        let engine = UpdateEngine(image: inputs.package, imageName: inputs.packageName, key: inputs.key,
                                  target: target, hostPower: .mains, clock: EngineClock(clock))

        let modelStart = clock.now
        let wallStart = ContinuousClock.now
        var attempts = [await UpdateAttempt.run(engine, index: 1, hangGuard: hangGuard)]
        let bootsAfterFirst = await peripheral.snapshot.boots.count
        if let first = attempts.first, !first.hung, scenario.expectation.rerunsAfter(first.exitStatus) {
            // The engine's first progress event comes after the first 4 KiB object even from 0, so
            // whether the rerun resumed is read from the device: the firmware it held when it began.
            let held = await peripheral.snapshot.currentSettings.progress.imageOffset
            let rerun = await UpdateAttempt.run(engine, index: 2, hangGuard: hangGuard)
            attempts.append(AttemptRecord(index: rerun.index, exitStatus: rerun.exitStatus, message: rerun.message,
                                          resumes: rerun.resumes, firstAcknowledged: held, hung: rerun.hung,
                                          lastStage: rerun.lastStage))
        }
        let modelEnd = clock.now
        let wallEnd = ContinuousClock.now
        await link.stop()

        let final = await NordicBootWait.final(clock: clock, expectation: scenario.expectation, { await peripheral.snapshot },
                                               powerCycle: { await peripheral.powerCycle() })
        return NordicRunJudgement(scenario: scenario, inputs: inputs, previousVersion: previousVersion)
            .record(run: run, seed: seed, device: text, drawn: drawn, attempts: attempts, bootsAfterFirst: bootsAfterFirst,
                    final: final, powerCycleMissed: cuts.missed, uploadedBytes: counter.total,
                    modelSeconds: modelStart.duration(to: modelEnd).seconds, wallSeconds: (wallEnd - wallStart).seconds)
    }
}
