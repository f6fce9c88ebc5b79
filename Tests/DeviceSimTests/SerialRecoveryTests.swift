import DFUCore
import DeviceSim
import Synchronization
import Testing
import Transport

/// MCUboot's serial recovery on the virtual device's serial line (`dfu sim --serve
/// serial:PATH,recovery`), driven as a client drives it: SMP packets framed for the line
/// (`SerialTestLine`), answers decoded from it, as boot_serial.c gives them.
@Suite(.timeLimit(.minutes(2))) struct SerialRecoveryTests {
    /// A served device and its line; flash takes no time, the line runs at 1 Mbaud.
    final class Bench: Sendable {
        let line: SerialTestLine
        let server: VirtualDeviceSerialServer
        private let events = Events()

        final class Events: Sendable {
            let entries = Mutex<[SerialServerEvent]>([])
        }

        init(recovery: Bool = true, silent: Bool = false, framing: SMPStreamFraming = .console, usb: Bool = false,
             noise: Int? = nil) async throws {
            var serving = SerialServeOptions()
            serving.baud = 1_000_000
            serving.framing = framing
            serving.startsInRecovery = recovery
            serving.applicationSilent = silent
            serving.vanishesOnReset = usb
            serving.noiseEvery = noise
            let configuration = DeviceConfiguration(
                identity: PeerIdentity("C0:00:00:00:00:01"), runningVersion: ImageVersion(major: 1, minor: 0, revision: 0),
                bootloaderKey: try PublicKey.defaultBootloaderKey(), flashTiming: .instant, startupTime: .milliseconds(50),
                server: SMPServerConfiguration(framing: .datagram))
            let line = SerialTestLine(framing: framing)
            let events = events
            let log = { @Sendable (event: SerialServerEvent) in events.entries.withLock { $0.append(event) } }
            self.line = line
            server = VirtualDeviceSerialServer(device: try VirtualDevice(configuration: configuration), port: line.openDeviceEnd(),
                                               serving: serving, clock: .realTime(), reopen: line.opener, observer: log)
            await server.start()
        }

        var logged: [SerialServerEvent] { events.entries.withLock { $0 } }

        /// One upload request's answer body.
        func upload(_ data: ArraySlice<UInt8>, at offset: Int, extra: CBORMap = [:]) async throws -> CBORMap {
            var body = extra
            body.append("data", .bytes(Array(data)))
            body.append("off", .unsigned(UInt64(offset)))
            return try #require(try await line.request(.image, ImageMgmtCommand.upload.rawValue, op: .write, body: body)).body
        }

        /// The whole image in `chunk`-byte pieces, as a client sends it (with the keys recovery skips).
        func uploadImage(_ image: [UInt8], chunk: Int = 512) async throws {
            var offset = 0
            while offset < image.count {
                let end = min(offset + chunk, image.count)
                let extra: CBORMap = offset == 0
                    ? ["image": .unsigned(0), "len": .unsigned(UInt64(image.count)), "sha": .bytes(try SHA256.hash(image)),
                       "upgrade": .bool(false)]
                    : [:]
                let answer = try await upload(image[offset ..< end], at: offset, extra: extra)
                #expect(answer["rc"] == .unsigned(0), "\(answer)")
                let next = try #require(answer["off"]?.uint)
                #expect(next > UInt64(offset), "\(answer)")
                offset = Int(next)
            }
        }

        func imageList() async throws -> CBORMap {
            try #require(try await line.request(.image, ImageMgmtCommand.state.rawValue)).body
        }

        func reset(_ body: CBORMap = [:]) async throws -> CBORMap {
            try #require(try await line.request(.os, OSMgmtCommand.reset.rawValue, op: .write, body: body)).body
        }

        /// Waits until the application is up after its `boots`-th boot; false after `timeout`.
        func applicationRuns(boots: Int = 1, within timeout: Duration = .seconds(3)) async -> Bool {
            await eventually(within: timeout) {
                let device = await self.server.snapshot
                guard await !self.server.inRecovery, device.boots.count >= boots, case .running = device.power else { return false }
                return true
            }
        }

        /// Waits until MCUboot's recovery has come up `times` times after a reset; false after `timeout`.
        func recoveryRuns(times: Int = 1, within timeout: Duration = .seconds(3)) async -> Bool {
            await eventually(within: timeout) {
                let ups = self.logged.filter { if case .recoveryOnline = $0 { true } else { false } }.count
                return await self.server.inRecovery && ups >= times
            }
        }

        private func eventually(within timeout: Duration, _ condition: @Sendable () async -> Bool) async -> Bool {
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline {
                if await condition() { return true }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return false
        }

        func primary() async -> [UInt8] { await server.snapshot.server.bootloader.primary.bytes }

        func stop() async { await server.stop() }
    }

    @Test func theImageListNamesValidSlotsWithoutStateFlags() async throws {
        let bench = try await Bench()
        let list = try await bench.imageList()
        #expect(list.entries.map(\.key) == ["images"], "no splitStatus: \(list)")
        let images = try #require(list["images"]?.array)
        #expect(images.count == 1, "the secondary slot is empty")
        let slot = try #require(images.first?.map)
        #expect(slot.entries.map(\.key) == ["slot", "hash", "version"], "no flags without IMG_GRP_IMAGE_STATE: \(slot)")
        #expect(slot["slot"] == .unsigned(0))
        #expect(slot["version"] == .text("1.0.0"))
        #expect(slot["hash"]?.bytes == (await bench.server.snapshot.server.bootloader.primaryImage?.hash))
        await bench.stop()
    }

    @Test func anUploadGoesStraightIntoThePrimarySlot() async throws {
        let bench = try await Bench()
        let image = try SimSamples.blinky("1.1.0")
        try await bench.uploadImage(image)
        #expect(Array((await bench.primary()).prefix(image.count)) == image)
        #expect(await bench.server.snapshot.server.bootloader.secondary.isErased, "the secondary slot is untouched")
        let slots = try #require(try await bench.imageList()["images"]?.array)
        #expect(slots.count == 1)
        #expect(slots.first?.map?["version"] == .text("1.1.0"))
        #expect(slots.first?.map?["hash"]?.bytes == (try SimSamples.slotHash(image)))
        #expect(bench.logged.contains(.recoveryUploadStarted(image: 0, length: image.count)))
        #expect(bench.logged.contains(.recoveryUploadCompleted(image: 0, length: image.count,
                                                               version: ImageVersion(major: 1, minor: 1, revision: 0))))
        #expect(bench.logged.allSatisfy { if case .uploadStarted = $0 { false } else { true } }, "not the application's upload")
        await bench.stop()
    }

    /// Another offset than expected: `{"rc": 0, "off": expected}`, the data dropped.
    @Test func aWrongOffsetIsAnsweredWithTheExpectedOne() async throws {
        let bench = try await Bench()
        let image = try SimSamples.blinky("1.1.0")
        let first = try await bench.upload(image[0 ..< 512], at: 0, extra: ["len": .unsigned(UInt64(image.count))])
        #expect(first == ["rc": .unsigned(0), "off": .unsigned(512)])
        let skipped = try await bench.upload(image[1024 ..< 1536], at: 1024)
        #expect(skipped == ["rc": .unsigned(0), "off": .unsigned(512)])
        #expect((await bench.primary())[1024 ..< 1536].allSatisfy { $0 == FlashSlot.erasedByte }, "the data was dropped")
        await bench.stop()
    }

    /// Writes are cut to the 4-byte write alignment and the cut bytes asked again, except at the end.
    @Test func chunksAreCutToTheWriteAlignment() async throws {
        let bench = try await Bench()
        let image = Array(try SimSamples.blinky("1.1.0").prefix(1030))
        let first = try await bench.upload(image[0 ..< 513], at: 0, extra: ["len": .unsigned(1030)])
        #expect(first == ["rc": .unsigned(0), "off": .unsigned(512)])
        let last = try await bench.upload(image[512 ..< 1030], at: 512)
        #expect(last == ["rc": .unsigned(0), "off": .unsigned(1030)], "the tail is written padded")
        let primary = await bench.primary()
        #expect(Array(primary[0 ..< 1030]) == image)
        #expect(primary[1030 ..< 1032].allSatisfy { $0 == FlashSlot.erasedByte })
        await bench.stop()
    }

    @Test func anotherImageThanZeroOrALengthPastTheSlotIsRc3() async throws {
        let bench = try await Bench()
        let image = try SimSamples.blinky("1.1.0")
        let other = try await bench.upload(image[0 ..< 512], at: 0, extra: ["image": .unsigned(1), "len": .unsigned(UInt64(image.count))])
        #expect(other == ["rc": .unsigned(3)])
        let slotSize = await bench.server.snapshot.server.bootloader.primary.size
        let tooLong = try await bench.upload(image[0 ..< 512], at: 0, extra: ["len": .unsigned(UInt64(slotSize + 1))])
        #expect(tooLong == ["rc": .unsigned(3)])
        let noLength = try await bench.upload(image[0 ..< 512], at: 0)
        #expect(noLength == ["rc": .unsigned(3)])
        let started = try await bench.upload(image[0 ..< 512], at: 0, extra: ["len": .unsigned(600)])
        #expect(started == ["rc": .unsigned(0), "off": .unsigned(512)])
        let pastLength = try await bench.upload(image[512 ..< 1024], at: 512)
        #expect(pastLength == ["rc": .unsigned(3)], "past len")
        await bench.stop()
    }

    @Test func parametersEchoAndUnknownCommands() async throws {
        let bench = try await Bench()
        let parameters = try #require(try await bench.line.request(.os, OSMgmtCommand.mcumgrParameters.rawValue))
        #expect(parameters.body == ["buf_size": .unsigned(1024), "buf_count": .unsigned(1)])
        #expect(parameters.header.op == .readResponse)
        let echo = try #require(try await bench.line.request(.os, OSMgmtCommand.echo.rawValue, op: .write, body: ["d": "hello"]))
        #expect(echo.body == ["r": "hello"])
        let notLast = try #require(try await bench.line.request(.os, OSMgmtCommand.echo.rawValue, op: .write,
                                                                 body: ["d": "hello", "x": 1]))
        #expect(notLast.body == ["rc": .unsigned(3)], "d must be the map's last entry")
        let info = try #require(try await bench.line.request(.os, OSMgmtCommand.bootloaderInfo.rawValue))
        #expect(info.body == ["rc": .unsigned(8)])
        let stateWrite = try #require(try await bench.line.request(.image, ImageMgmtCommand.state.rawValue, op: .write,
                                                                    body: ["confirm": true]))
        #expect(stateWrite.body == ["rc": .unsigned(8)], "no IMG_GRP_IMAGE_STATE")
        await bench.stop()
    }

    /// A packet whose decoded frame outgrows the 1025-byte decode buffer is dropped without an answer.
    @Test func aPacketLargerThanTheReceiveBufferIsDroppedSilently() async throws {
        let bench = try await Bench()
        let large = String(repeating: "x", count: 1100)
        try bench.line.write(try SMPPacket(op: .write, group: .os, command: OSMgmtCommand.echo.rawValue, sequence: 1,
                                           body: ["d": .text(large)]).encoded())
        #expect(await bench.line.nextReply(within: .milliseconds(300)) == nil)
        let echo = try #require(try await bench.line.request(.os, OSMgmtCommand.echo.rawValue, op: .write, body: ["d": "ok"]))
        #expect(echo.body == ["r": "ok"])
        await bench.stop()
    }

    /// The recovery's reset: `{"rc": 0}`, then MCUboot validates the primary slot and boots it; the
    /// application answers on the same line with the new image running, confirmed.
    @Test func afterTheResetTheApplicationRunsTheNewImage() async throws {
        let bench = try await Bench()
        let image = try SimSamples.blinky("1.1.0")
        try await bench.uploadImage(image)
        #expect(try await bench.reset() == ["rc": .unsigned(0)])
        #expect(await bench.applicationRuns())
        let state = try #require(try await bench.line.request(.image, ImageMgmtCommand.state.rawValue))
        let slot = try #require(state.body["images"]?.array?.first?.map)
        #expect(slot["version"] == .text("1.1.0"))
        #expect(slot["active"] == .bool(true) && slot["confirmed"] == .bool(true), "\(state.body)")
        #expect(state.body["splitStatus"] != nil, "the application's answer")
        #expect(bench.logged.contains { if case .rebootingFromRecovery = $0 { true } else { false } })
        #expect(bench.logged.contains { if case .online(let running?, _) = $0 { running.versionString == "1.1.0" } else { false } })
        await bench.stop()
    }

    /// A primary slot that does not validate (a half-written image): MCUboot stays in recovery.
    @Test func withoutAValidImageMCUbootStaysInRecovery() async throws {
        let bench = try await Bench()
        let image = try SimSamples.blinky("1.1.0")
        _ = try await bench.upload(image[0 ..< 512], at: 0, extra: ["len": .unsigned(UInt64(image.count))])
        #expect(try await bench.reset() == ["rc": .unsigned(0)])
        #expect(await bench.recoveryRuns())
        let list = try await bench.imageList()
        #expect(list == ["images": .array([])], "recovery answers, and lists nothing valid")
        #expect(bench.logged.contains { if case .enteringRecovery(.noValidImage) = $0 { true } else { false } })
        await bench.stop()
    }

    /// `app-silent`: the application has no SMP transport on the line: after the reset nothing answers.
    @Test func aSilentApplicationAnswersNothing() async throws {
        let bench = try await Bench(silent: true, noise: 1)
        try await bench.uploadImage(try SimSamples.blinky("1.1.0"))
        #expect(try await bench.reset() == ["rc": .unsigned(0)])
        #expect(await bench.applicationRuns())
        #expect(try await bench.line.request(.os, OSMgmtCommand.echo.rawValue, op: .write, body: ["d": "hi"],
                                              within: .milliseconds(300)) == nil)
        #expect(await bench.server.snapshot.runningVersionText == "1.1.0+0")
        #expect(bench.line.logText.contains("<inf> app: heartbeat"), "only log lines: \(bench.line.logText)")
        await bench.stop()
    }

    /// The application's reset with `boot_mode: 1` reboots into the recovery; without it, into the
    /// application again.
    @Test func bootModeOneRebootsIntoRecovery() async throws {
        let bench = try await Bench(recovery: false)
        #expect(try await bench.reset() == [:])
        #expect(await bench.applicationRuns(boots: 1))
        #expect(try await bench.imageList()["splitStatus"] != nil, "the application again")
        #expect(try await bench.reset(["boot_mode": .unsigned(1)]) == [:])
        #expect(await bench.recoveryRuns())
        #expect(try await bench.imageList().entries.map(\.key) == ["images"], "MCUboot's list")
        #expect(bench.logged.contains(.enteringRecovery(.bootMode)))
        #expect(await bench.server.snapshot.retainedBootMode == 0, "MCUboot cleared it")
        await bench.stop()
    }

    @Test func aBootModeAbove255IsRc3() async throws {
        let bench = try await Bench(recovery: false)
        #expect(try await bench.reset(["boot_mode": .unsigned(256)]) == ["rc": .unsigned(3)])
        #expect(await !bench.server.inRecovery)
        await bench.stop()
    }

    @Test func rawPacketsReachTheRecoveryToo() async throws {
        let bench = try await Bench(framing: .raw)
        let list = try await bench.imageList()
        #expect(list["images"]?.array?.count == 1)
        await bench.stop()
    }

    /// A USB port vanishes across the recovery's reset and comes back for the application.
    @Test func aUSBPortVanishesAndComesBackAcrossTheReset() async throws {
        let bench = try await Bench(usb: true)
        #expect(try await bench.reset() == ["rc": .unsigned(0)])
        #expect(await bench.applicationRuns())
        let deadline = ContinuousClock.now + .seconds(2)
        while bench.line.openings.opened < 2, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(bench.line.openings == (opened: 2, closed: 1))
        #expect(try await bench.imageList()["splitStatus"] != nil, "the factory image boots: the application answers")
        await bench.stop()
    }
}
