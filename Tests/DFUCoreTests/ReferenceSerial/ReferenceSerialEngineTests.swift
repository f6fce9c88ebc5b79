@testable import DFUCore
import DeviceSim
import ReferenceDevices
import Testing
import Transport

extension EngineTests {
    /// dfu's serial clients against devices modelled from the firmware sources by someone who had
    /// not read them (`Sources/ReferenceDevices`): a Zephyr application with SMP over a UART
    /// (docs/reference-device-mcumgr-serial.md) and the nRF5 SDK's serial bootloader
    /// (docs/reference-device-nrf5-sdk.md), each served on a line in memory at its baud rate.
    @Suite(.timeLimit(.minutes(3))) struct ReferenceSerialEngineTests {
        static let baud = 1_000_000

        /// The Zephyr model with `edit` applied, running the 1.0.0 sample, on a host.
        static func zephyr(_ edit: (inout MCUmgrSerialConfiguration) -> Void = { _ in })
            async throws -> (SerialLineDeviceHost, SerialPipe) {
            var configuration = MCUmgrSerialConfiguration(initialImage: try Samples.image("blinky-ecdsa-p256-1.0.0.signed.bin"))
            configuration.baudRate = baud
            edit(&configuration)
            let pipe = SerialPipe(characteristic: SMPGATT.characteristic)
            let host = SerialLineDeviceHost(MCUmgrSerialDevice(configuration: configuration, now: LinkClock.realTime().now),
                                            pipe: pipe, baud: configuration.baudRate,
                                            vanishesOnReset: configuration.port == .usbCDCACM)
            await host.start()
            return (host, pipe)
        }

        /// One update of `image` through dfu's SMP serial client, with the test deadlines and `edit` applied.
        static func flashSMP(_ pipe: SerialPipe, framing: SMPStreamFraming = .console, image: String = EngineTestBench.image,
                             edit: (inout UpdateOptions) -> Void = { _ in }) async throws -> EngineOutcome {
            var options = UpdateOptions()
            options.deadlines = EngineTestBench.fastDeadlines
            options.deadlines.reboot = .seconds(20)
            edit(&options)
            let connector = SMPSerialConnector(wrapping: pipe.connector, byteCharacteristic: SMPGATT.characteristic, framing: framing)
            let engine = UpdateEngine(image: try Samples.image(image), imageName: "test.bin",
                                      key: try Samples.key("ecdsa-p256"), options: options,
                                      target: .init(connector: connector, peer: PeerIdentity("serial:/dev/ttyREF"), speaks: .smp),
                                      hostPower: .mains)
            let run = engine.start()
            var events: [UpdateEvent] = []
            for await event in run.events { events.append(event) }
            return EngineOutcome(events: events, result: await run.result.value)
        }

        static func running(_ host: SerialLineDeviceHost) async -> (String?, Bool) {
            await host.inspect { device in
                let zephyr = device as? MCUmgrSerialDevice
                return (zephyr?.runningVersion.map { "\($0.major).\($0.minor).\($0.revision)" }, zephyr?.runningImageConfirmed ?? false)
            }
        }

        /// Zephyr's defaults: no MCUmgr parameters (dfu assumes 384-byte buffers and one request in
        /// flight), two 128-byte UART line buffers, a USB port that vanishes at the reset.
        @Test func zephyrDefaultsTakeTheUpdate() async throws {
            let (host, pipe) = try await Self.zephyr()
            let outcome = try await Self.flashSMP(pipe)
            let notes = await host.notes
            #expect(outcome.result == .success(ImageVersion(major: 1, minor: 1, revision: 0)), "\(String(describing: outcome.error)) \(notes.suffix(5))")
            #expect(outcome.events.contains { if case .connected(let link) = $0 { link.window == 1 } else { false } },
                    "no MCUmgr parameters: one request in flight")
            let (version, confirmed) = await Self.running(host)
            #expect(version == "1.1.0")
            #expect(confirmed)
            await host.stop()
        }

        /// With `CONFIG_MCUMGR_GRP_OS_MCUMGR_PARAMS` and bigger buffers, dfu keeps `buf_count − 1`
        /// requests in flight; the device's two UART line buffers must still never overflow.
        @Test func pipelinedRequestsFitTheDevicesBuffers() async throws {
            // 230400 baud: the host stamps bytes with the real clock, so on a starved machine a
            // faster line's gaps shrink below the model's decode time and lines are lost that a
            // real UART would not lose; at this rate the model's margins dwarf scheduling delays.
            let (host, pipe) = try await Self.zephyr {
                $0.osMCUmgrParameters = true
                $0.netbufSize = 1024
                $0.netbufCount = 4
                $0.port = .uart
                $0.baudRate = 230_400
            }
            let outcome = try await Self.flashSMP(pipe)
            let notes = await host.notes
            #expect(outcome.result == .success(ImageVersion(major: 1, minor: 1, revision: 0)), "\(String(describing: outcome.error)) \(notes.suffix(5))")
            #expect(outcome.events.contains { if case .connected(let link) = $0 { link.window == 3 } else { false } },
                    "buf_count 4: three requests in flight")
            let counters = await host.inspect { ($0 as? MCUmgrSerialDevice)?.counters }
            #expect(counters?.linesDroppedNoBuffer == 0, "\(String(describing: counters))")
            #expect(counters?.fragmentsDroppedNoNetbuf == 0, "\(String(describing: counters))")
            await host.stop()
        }

        @Test func logLinesOnTheSameUARTAreSkipped() async throws {
            let (host, pipe) = try await Self.zephyr { $0.noise = .init(every: 2) }
            let outcome = try await Self.flashSMP(pipe)
            #expect(outcome.result == .success(ImageVersion(major: 1, minor: 1, revision: 0)), "\(String(describing: outcome.error))")
            await host.stop()
        }

        @Test func rawSMPTakesTheUpdate() async throws {
            let (host, pipe) = try await Self.zephyr { $0.applicationFraming = .raw }
            let outcome = try await Self.flashSMP(pipe, framing: .raw)
            #expect(outcome.result == .success(ImageVersion(major: 1, minor: 1, revision: 0)), "\(String(describing: outcome.error))")
            await host.stop()
        }

        /// The nRF5 SDK's UART serial bootloader takes a Nordic package from dfu's serial client.
        @Test(arguments: [SDKSerialVariant.uart, .usb])
        func nrf5SerialBootloaderTakesThePackage(variant: SDKSerialVariant) async throws {
            var configuration = SDKSerialDeviceConfiguration(variant: variant, publicKey: try NordicSamples.key())
            configuration.bootloader.softDeviceFWID = 0x0101
            configuration.baudRate = Self.baud
            let pipe = SerialPipe(characteristic: NordicSerialLink.byteFace.characteristic)
            let host = SerialLineDeviceHost(SDKSerialDevice(configuration: configuration, poweredOnAt: LinkClock.realTime().now),
                                            pipe: pipe, baud: Self.baud, vanishesOnReset: configuration.portVanishesOnReset)
            await host.start()
            var options = UpdateOptions()
            options.deadlines = EngineTestBench.fastDeadlines
            let connector = NordicSerialConnector(wrapping: pipe.connector, byteCharacteristic: NordicSerialLink.byteFace.characteristic)
            let engine = UpdateEngine(image: try Samples.bytes("nordic/app-signed-3.zip"), imageName: "app-signed-3.zip",
                                      key: try NordicSamples.key(), options: options,
                                      target: .init(connector: connector, peer: PeerIdentity("serial:/dev/ttyREF"), speaks: .nordic),
                                      hostPower: .mains)
            let run = engine.start()
            for await _ in run.events {}
            let result = await run.result.value
            let notes = await host.notes
            if case .failure(let error) = result { Issue.record("\(error) \(notes.suffix(8))") }
            // The bootloader answered the last execute and resets; the new application starts after
            // its boot time (the engine cannot see it: it has no DFU on the port).
            var version: UInt32?
            for _ in 0..<50 where version == nil {
                try await Task.sleep(for: .milliseconds(100))
                version = await host.inspect { ($0 as? SDKSerialDevice)?.runningApplicationVersion }
            }
            #expect(version == 3, "\(notes.suffix(8))")
            await host.stop()
        }
    }
}
