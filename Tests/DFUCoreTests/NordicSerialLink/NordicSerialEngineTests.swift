@testable import DFUCore
import DeviceSim
import NordicTestSupport
import Testing
import Transport

extension EngineTests {
    /// Whole Nordic updates over a serial line to the virtual nRF52's serial bootloader: UART and
    /// USB, packet receipts, a port that vanishes mid-transfer, a dropped Write Object, a package in
    /// two parts, and what cannot be checked over a line.
    @Suite(.timeLimit(.minutes(2))) struct NordicSerialEngineTests {
        private func expectUpdated(_ bench: NordicSerialEngineBench, _ outcome: EngineOutcome) async {
            #expect(outcome.exitStatus == .success, "\(String(describing: outcome.error))")
            #expect(await bench.device.applicationVersion == 3)
            // Only the bootloader speaks on the line: nothing waits for the application.
            #expect(!outcome.started.contains(.reconnect))
            #expect(outcome.events.contains { if case .firmwareReported(_, nil, true) = $0 { true } else { false } })
        }

        private var usb: SerialServeOptions {
            var serving = SerialServeOptions.fastLine
            serving.vanishesOnReset = true
            return serving
        }

        @Test func aPackageGoesToTheUARTBootloaderIn64ByteWriteObjects() async throws {
            let bench = try await NordicSerialEngineBench.make()
            let outcome = try await bench.flash()
            await expectUpdated(bench, outcome)
            let requests = bench.requests
            // nrfutil's order: ping until answered, Get MTU; then the objects.
            #expect(Array(requests.prefix(3)) == [.ping(id: 1), .getMTU, .controlPoint(.select(.command))])
            let writes = requests.compactMap { if case .writeObject(let data) = $0 { data.count } else { nil } }
            #expect(writes.max() == 64)
            #expect(writes.reduce(0, +) == 49_152 + 141)
            #expect(bench.notes.all.isEmpty, "\(bench.notes.all)")
            await bench.server.stop()
        }

        /// USB CDC ACM: MTU 2051, so 1 KiB per Write Object; the port vanishes when the bootloader
        /// resets after the final Execute, which ends the run without waiting for anything.
        @Test func theUSBBootloaderTakesKilobyteWriteObjects() async throws {
            let bench = try await NordicSerialEngineBench.make(serving: usb)
            let outcome = try await bench.flash()
            await expectUpdated(bench, outcome)
            let writes = bench.requests.compactMap { if case .writeObject(let data) = $0 { data.count } else { nil } }
            #expect(writes.max() == 1024)
            await bench.server.stop()
        }

        /// With a PRN the bootloader answers every Nth Write Object with a checksum answer, which the
        /// transfer core takes as the receipt it is over BLE.
        @Test func packetReceiptsArriveAsChecksumAnswers() async throws {
            let bench = try await NordicSerialEngineBench.make()
            let outcome = try await bench.flash { $0.packetReceiptNotification = 8 }
            await expectUpdated(bench, outcome)
            #expect(bench.requests.contains(.controlPoint(.setPRN(8))))
            let checksumRequests = bench.requests.filter { $0 == .controlPoint(.calculateChecksum) }.count
            let checksumAnswers = bench.answers.filter { $0.starts(with: [0x60, 0x03, 0x01]) }.count
            // 768 writes of 64 bytes: a receipt every 8, besides the answers to requests.
            #expect(checksumAnswers - checksumRequests >= 90)
            await bench.server.stop()
        }

        /// The USB port vanishes mid-transfer (the bootloader drops the line after the 20th Write
        /// Object: a USB glitch); dfu opens it again, pings, and resumes where Select says.
        @Test func aPortThatVanishesMidTransferIsOpenedAgainAndTheTransferResumes() async throws {
            let bench = try await NordicSerialEngineBench.make("sdk=15,drop=packet:20", serving: usb)
            let outcome = try await bench.flash()
            await expectUpdated(bench, outcome)
            #expect(outcome.warnings.contains { $0.contains("was lost") }, "\(outcome.warnings)")
            let resume = try #require(outcome.resumes.first)
            #expect(resume.offset > 0, "SDK 15 keeps what it received")
            #expect(bench.serverEvents.all.contains(.portVanished))
            await bench.server.stop()
        }

        /// A Write Object the bootloader drops (no buffer) shows in the object's checksum; the object
        /// is sent again, one receipt per packet from then on.
        @Test func aDroppedWriteObjectIsFoundByTheChecksumAndSentAgain() async throws {
            let bench = try await NordicSerialEngineBench.make("prn_drop=30")
            let outcome = try await bench.flash()
            await expectUpdated(bench, outcome)
            #expect(bench.requests.contains(.controlPoint(.setPRN(1))))
            await bench.server.stop()
        }

        /// A SoftDevice with a bootloader, then the application: after the first part the bootloader
        /// resets into DFU mode again; dfu sees it go silent (its pings unanswered), opens the line
        /// again and finds it there.
        @Test(arguments: [false, true]) func aPackageInTwoPartsWaitsForTheBootloaderBetweenThem(overUSB: Bool) async throws {
            let bench = try await NordicSerialEngineBench.make(serving: overUSB ? usb : .fastLine)
            let package = NordicTestPackage([try .softDeviceBootloader(version: 2), try .sampleApplication()]).bytes
            let outcome = try await bench.flash(package)
            await expectUpdated(bench, outcome)
            // dfu is done at the final Execute's answer; the new application starts a boot later.
            var device = await bench.device
            for _ in 0 ..< 40 where device.boots.count < 2 {
                try await Task.sleep(for: .milliseconds(50))
                device = await bench.device
            }
            #expect(device.currentSettings.bootloaderVersion == 2)
            #expect(device.boots.map(\.target) == [.bootloader, .application(version: 3)])
            await bench.server.stop()
        }

        /// Nothing answers on the line after the update, so `--expect-version` is refused before
        /// anything but the connect's ping and MTU is sent.
        @Test func anExpectedVersionIsRefusedBeforeAnythingIsSent() async throws {
            let bench = try await NordicSerialEngineBench.make()
            let outcome = try await bench.flash { $0.expectedVersion = "0.0.3" }
            #expect(outcome.exitStatus == .usage, "\(String(describing: outcome.error))")
            #expect(outcome.error?.description.contains("cannot be checked over a serial port") == true)
            #expect(bench.requests == [.ping(id: 1), .getMTU])
            await bench.server.stop()
        }

        /// A bootloader that is not there (the application runs): the connect fails with words about
        /// the line, not about Bluetooth.
        /// A run killed mid-object leaves its last requests on the line: Write Objects, then the
        /// object's Calculate Checksum and Execute. The bootloader reads and answers them after the
        /// next run has opened the port, before that run's first ping; the next run must not take
        /// those answers for its own (docs/faults.md, finding 14: exit 7 before).
        @Test func theRunAfterAKilledOneIsNotConfusedByItsLeftoverAnswers() async throws {
            let bench = try await NordicSerialEngineBench.make()
            let killed = try await bench.pipe.connector.connect(to: NordicSerialEngineBench.peer, deadline: .now + .seconds(1))
            var leftovers: [UInt8] = []
            for _ in 0 ..< 48 { leftovers += SLIPEncoder.encode([0x08] + [UInt8](repeating: 0x55, count: 64)) }
            leftovers += SLIPEncoder.encode(NordicRequest.calculateChecksum.encoded)
            leftovers += SLIPEncoder.encode(NordicRequest.execute.encoded)
            try await killed.writeWithoutResponse(leftovers, to: NordicSerialLink.byteFace.characteristic)
            await killed.disconnect()
            let outcome = try await bench.flash()
            await expectUpdated(bench, outcome)
            #expect(Array(bench.requests.prefix(2)) == [.writeObject([UInt8](repeating: 0x55, count: 64)),
                                                        .writeObject([UInt8](repeating: 0x55, count: 64))])
            #expect(bench.notes.all.contains { if case .dropped(let why) = $0 { why.contains("earlier run") } else { false } },
                    "\(bench.notes.all)")
            await bench.server.stop()
        }

        @Test func aPortWhereNothingAnswersIsNoBootloader() async throws {
            let bench = try await NordicSerialEngineBench.make()
            await bench.server.stop()
            _ = bench.pipe.openDeviceEnd() // a port nobody serves
            let outcome = try await bench.flash { $0.deadlines.connect = .milliseconds(500) }
            #expect(outcome.exitStatus == .deviceUnreachable, "\(String(describing: outcome.error))")
            #expect(outcome.error?.description.contains("nothing answered Nordic DFU pings") == true)
        }
    }
}
