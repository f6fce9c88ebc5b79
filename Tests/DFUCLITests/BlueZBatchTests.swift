import BlueZStandIn
import DeviceSim
import Foundation
import Testing
import Transport

/// `dfu batch` over D-Bus against the BlueZ stand-in: a plan of Bluetooth devices on one adapter
/// (connections set up one at a time, transfers in parallel), and `--discover` flashing devices as
/// they start to advertise, each once.
@Suite(.serialized, .enabled(if: PrivateDBusDaemon.daemonPath != nil, "dbus-daemon is not installed (make deps)"))
struct BlueZBatchTests {
    static let image = BlueZEndToEndTests.image
    static let key = BlueZEndToEndTests.key

    /// Adds a virtual device (unpaced) advertising SMP under `name` at `address`, heard on `adapter`.
    private static func addDevice(_ bench: BlueZStandInBench, address: String, name: String,
                                  adapter: String = "hci0") async throws -> VirtualPeripheral {
        let peripheral = try await VirtualPeripheral.serve(try SimOptions.parse("sim:timescale=0,id=\(address)"), on: bench.connector)
        try await bench.requireStandIn().add(BlueZStandInDevice(
            address: address, advertisement: BlueZStandInAdvertisement(name: name, services: [DeviceGATT.smpService], rssi: -50),
            connector: bench.connector, peer: peripheral.identity, adapter: adapter))
        return peripheral
    }

    /// `--adapter all`: the powered adapters (hci0 and hci2, not hci1) share the plan, least
    /// loaded first, so the second device, heard only on hci2, is reached there.
    @Test func adapterAllSpreadsThePlanOverEveryPoweredAdapter() async throws {
        let adapters = [BlueZStandInAdapter(name: "hci0"),
                        BlueZStandInAdapter(name: "hci1", address: "00:AA:01:00:00:01", powered: false),
                        BlueZStandInAdapter(name: "hci2", address: "00:AA:01:00:00:02")]
        try await BlueZStandInBench.run(adapters: adapters) { bench in
            let first = try await Self.addDevice(bench, address: "C2:11:40:55:7E:01", name: "line-0", adapter: "hci0")
            let second = try await Self.addDevice(bench, address: "C2:11:40:55:7E:02", name: "line-1", adapter: "hci2")
            let state = try DFUTestEnvironment.freshStateHome()
            defer { try? FileManager.default.removeItem(atPath: state) }
            let root = DFUBinary.repositoryRoot.path
            try ["device,image", "C2:11:40:55:7E:01,\(root)/\(Self.image)", "C2:11:40:55:7E:02,\(root)/\(Self.image)"]
                .joined(separator: "\n").write(toFile: state + "/plan.csv", atomically: true, encoding: .utf8)
            let run = try await BlueZDFUProcess.run(["batch", state + "/plan.csv", "--key", Self.key, "--parallel", "2",
                                                     "--adapter", "all", "--json"],
                                                    bus: bench.busAddress, timeout: .seconds(90), environment: ["XDG_STATE_HOME": state])
            #expect(run.exitCode == 0, "\(run.output)")
            let devices = try run.stdoutLines.map(FlashCLITests.object).filter { $0["event"] as? String == "device" }
            #expect(devices.count == 2 && devices.allSatisfy { $0["result"] as? String == "ok" }, "\(run.stdout)")
            for peripheral in [first, second] {
                #expect(await peripheral.snapshot.server.bootloader.primaryImage?.version.description == "1.1.0+0")
            }
            let mixed = try await BlueZDFUProcess.run(["batch", state + "/plan.csv", "--adapter", "all", "--adapter", "hci0"],
                                                      bus: bench.busAddress, environment: ["XDG_STATE_HOME": state])
            #expect(mixed.exitCode == 2 && mixed.stderr.contains("--adapter all stands alone"), "\(mixed.output)")
        }
    }

    /// Connection set-up takes 300 ms here, so Connects to the three would overlap if dfu let them.
    @Test func aPlanOfThreeBluetoothDevicesConnectsOneAtATimeAndTransfersInParallel() async throws {
        let timing = BlueZStandInTiming(connectAttemptTimeout: .seconds(2), connectLatency: .milliseconds(300))
        try await BlueZStandInBench.run(timing: timing) { bench in
            let addresses = ["C2:11:40:55:7B:01", "C2:11:40:55:7B:02", "C2:11:40:55:7B:03"]
            var peripherals: [VirtualPeripheral] = []
            for (index, address) in addresses.enumerated() {
                peripherals.append(try await Self.addDevice(bench, address: address, name: "line-\(index)"))
            }
            let state = try DFUTestEnvironment.freshStateHome()
            defer { try? FileManager.default.removeItem(atPath: state) }
            let root = DFUBinary.repositoryRoot.path
            try (["device,image"] + addresses.map { "\($0),\(root)/\(Self.image)" }).joined(separator: "\n")
                .write(toFile: state + "/plan.csv", atomically: true, encoding: .utf8)
            let run = try await BlueZDFUProcess.run(["batch", state + "/plan.csv", "--key", Self.key, "--parallel", "3", "--json"],
                                                    bus: bench.busAddress, timeout: .seconds(90), environment: ["XDG_STATE_HOME": state])
            #expect(run.exitCode == 0, "\(run.output)")
            let devices = try run.stdoutLines.map(FlashCLITests.object).filter { $0["event"] as? String == "device" }
            #expect(devices.count == 3 && devices.allSatisfy { $0["result"] as? String == "ok" }, "\(run.stdout)")
            #expect(Set(devices.compactMap { $0["device"] as? String }) == Set(addresses), "records carry addresses in full")
            for peripheral in peripherals {
                #expect(await peripheral.snapshot.server.bootloader.primaryImage?.version.description == "1.1.0+0")
            }
            #expect(try await bench.requireStandIn().peakPendingConnects() == 1, "one connection set up at a time on the adapter")
            #expect(bench.standIn?.problems == [])
        }
    }

    /// Devices that start advertising over time: the two matching ones and one already updated are
    /// found; the one already running the image is reported as such and does not count; the one
    /// with another name is left alone.
    @Test func discoverFlashesMatchingDevicesAsTheyAppearEachOnce() async throws {
        try await BlueZStandInBench.run(timing: BlueZStandInTiming(connectAttemptTimeout: .seconds(1))) { bench in
            let state = try DFUTestEnvironment.freshStateHome()
            defer { try? FileManager.default.removeItem(atPath: state) }
            let current = try await Self.addDevice(bench, address: "C2:11:40:55:7C:00", name: "sensor-0")
            let warmUp = try await BlueZDFUProcess.run(["flash", Self.image, "--device", "C2:11:40:55:7C:00", "--key", Self.key],
                                                       bus: bench.busAddress, environment: ["XDG_STATE_HOME": state + "/other"])
            #expect(warmUp.exitCode == 0, "\(warmUp.output)")
            let other = try await Self.addDevice(bench, address: "C2:11:40:55:7C:09", name: "gateway-9")

            let run = try await BlueZDFUProcess.run(
                ["batch", Self.image, "--discover", "name:sensor-*", "--count", "2", "--until", "40", "--key", Self.key,
                 "--parallel", "2", "--json"],
                bus: bench.busAddress, timeout: .seconds(90), environment: ["XDG_STATE_HOME": state]) { _ in
                // Two more sensors start advertising while the batch looks.
                try await Task.sleep(for: .milliseconds(700))
                _ = try await Self.addDevice(bench, address: "C2:11:40:55:7C:01", name: "sensor-1")
                try await Task.sleep(for: .milliseconds(700))
                _ = try await Self.addDevice(bench, address: "C2:11:40:55:7C:02", name: "sensor-2")
            }
            #expect(run.exitCode == 0, "\(run.output)")
            let lines = try run.stdoutLines.map(FlashCLITests.object)
            let devices = lines.filter { $0["event"] as? String == "device" }
            let results = Dictionary(devices.compactMap { object in
                (object["device"] as? String).map { ($0, object["result"] as? String ?? "") }
            }, uniquingKeysWith: { first, _ in first })
            #expect(results == ["C2:11:40:55:7C:00": "skipped", "C2:11:40:55:7C:01": "ok", "C2:11:40:55:7C:02": "ok"],
                    "\(run.stdout)")
            #expect(devices.count == 3, "each device once: \(run.stdout)")
            #expect(lines.last?["succeeded"] as? Int == 2 && lines.last?["skipped"] as? Int == 1, "\(lines.last ?? [:])")
            #expect(await other.snapshot.server.bootloader.primaryImage?.version.description == "1.0.0+0", "another name: left alone")
            _ = current
        }
    }
}
