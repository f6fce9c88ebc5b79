import DFUCore
import DeviceSim
import Transport

/// One run of a `serial-nordic-*` scenario: a fresh virtual nRF52 from the run's seed, in its
/// bootloader on a pseudo-terminal as `dfu sim --serve serial:PATH[,usb] --protocol nordic` serves
/// it (`NordicServedSerial`), the scenario's faults drawn from the seed as in the memory runs
/// (`NordicFaults`), one whole update of the package as `dfu flash PKG.zip --device serial:PATH`
/// runs it (dfu's Nordic serial connector; default deadlines, on the model clock), a rerun when
/// the scenario expects the first to fail, then the device's own state.
///
/// A serial-only board's application reads nothing on the line: after a power cut the device
/// starts its old application, which no rerun can reach. So before a rerun the campaign does what
/// the user does, puts it back into DFU mode (a power cycle with the DFU button held), as it
/// charges a battery before an SMP rerun.
struct NordicSerialScenarioRun {
    let scenario: Scenario
    let faults: NordicFaults
    let run: Int
    let seed: UInt64
    let inputs: NordicInputs
    let timeScale: Double
    let hangGuard: Duration

    /// Object bytes per Write Object: the transfer core's packet (ATT MTU − 3, a multiple of 4) on
    /// a link of the bootloader's MTU (UART 131: 64 bytes; USB 2051: 1024).
    private var packetSize: Int {
        let mtu = faults.usb ? NordicSerialLimits.usbMTU : NordicSerialLimits.uartMTU
        return NordicTransferConfiguration.packetSize(attMTU: (NordicSerialWriteSize.largestPayload(mtu: mtu) ?? 1) + 3)
    }

    private var packetWrites: Int {
        (inputs.initPacketBytes + packetSize - 1) / packetSize + (inputs.firmwareBytes + packetSize - 1) / packetSize
    }

    func perform() async throws(FaultsError) -> RunRecord {
        if (faults.linkDrop && !faults.usb) || faults.bootloaderElsewhere {
            // A UART has no connection to drop, and a port no address.
            throw .setup("scenario \(scenario.name): a link drop needs the USB transport; a serial port has no address")
        }
        let dropped = faults.droppedWrites(seed: seed, packetWrites: packetWrites)
        var items = ["protocol=nordic", "seed=\(seed)", "sdk=\(faults.sdk)"]
        if !dropped.isEmpty { items.append("prn_drop=" + dropped.map(String.init).joined(separator: "+")) }
        var drawn = (faults.usb ? ["usb"] : []) + dropped.map { "drop-packet@\($0)" }
        if faults.linkDrop {
            // The bootloader drops the line after a Packet write inside the firmware (the first
            // write carries the init packet); its USB port goes and comes back.
            let write = max(2, Int((NordicFaults.share(seed: seed, index: 0) * Double(packetWrites)).rounded()))
            items.append("drop=packet:\(write)")
            drawn.append("line-drop@packet:\(write)")
        }
        if faults.otherBootloaderKey { items.append("key=\(inputs.otherKeyPath)") }
        if let item = faults.checksumFaultItem(seed: seed, firmwareBytes: inputs.firmwareBytes) { items.append(item) }
        items.append("timescale=\(timeScale)")
        let text = "sim:" + items.joined(separator: ",")
        let setup = try SimSetup(text, scenario: scenario.name, timeScale: timeScale)
        let clock = setup.clock
        let configuration: NordicDeviceConfiguration
        do throws(SimOptionsError) {
            configuration = try setup.options.nordicDeviceConfiguration()
        } catch {
            throw SimSetup.serveFailed(scenario.name, error)
        }

        let served = try await NordicServedSerial.serve(configuration, usb: faults.usb, baud: scenario.serialBaud, clock: clock,
                                                        scenario: scenario.name)
        let server = served.server
        let cuts = NordicPowerCuts(faults, seed: seed, inputs: inputs) { await server.powerCycle() }
        drawn += cuts.drawn
        let counter = cuts.counter()
        let connector: any Connector
        do throws(FaultsError) {
            connector = try served.connector(counting: counter)
        } catch {
            await served.stop()
            throw error
        }
        let previousVersion = await server.snapshot.applicationVersion
        let target = UpdateEngine.Target(connector: connector, peer: served.peer, label: served.peer.rawValue, speaks: .nordic)
        let engine = UpdateEngine(image: inputs.package, imageName: inputs.packageName, key: inputs.key,
                                  target: target, hostPower: .mains, clock: EngineClock(clock))

        let modelStart = clock.now
        let wallStart = ContinuousClock.now
        var attempts = [await UpdateAttempt.run(engine, index: 1, hangGuard: hangGuard)]
        let bootsAfterFirst = await server.snapshot.boots.count
        if let first = attempts.first, !first.hung, scenario.expectation.rerunsAfter(first.exitStatus) {
            if case .application = await served.settled(clock: clock).mode {
                await server.powerCycle(enterBootloader: true)
                _ = await served.settled(clock: clock)
                drawn.append("dfu-mode-by-hand")
            }
            // What the bootloader holds of the firmware as the rerun begins (in RAM: a line has no
            // connection whose end would send it back to its settings page): whether it resumed.
            let held: Int
            switch await server.snapshot.mode {
            case .bootloader(let bootloader): held = bootloader.progress.imageOffset
            case .application, .booting: held = await server.snapshot.currentSettings.progress.imageOffset
            }
            let rerun = await UpdateAttempt.run(engine, index: 2, hangGuard: hangGuard)
            attempts.append(AttemptRecord(index: rerun.index, exitStatus: rerun.exitStatus, message: rerun.message,
                                          resumes: rerun.resumes, firstAcknowledged: held, hung: rerun.hung,
                                          lastStage: rerun.lastStage))
        }
        let modelEnd = clock.now
        let wallEnd = ContinuousClock.now

        let final = await NordicBootWait.final(clock: clock, expectation: scenario.expectation, { await server.snapshot },
                                               powerCycle: { await server.powerCycle() })
        await served.stop()
        return NordicRunJudgement(scenario: scenario, inputs: inputs, previousVersion: previousVersion)
            .record(run: run, seed: seed, device: text, drawn: drawn, attempts: attempts, bootsAfterFirst: bootsAfterFirst,
                    final: final, powerCycleMissed: cuts.missed, uploadedBytes: counter.total,
                    modelSeconds: modelStart.duration(to: modelEnd).seconds, wallSeconds: (wallEnd - wallStart).seconds)
    }
}
