import BlueZStandIn
import DFUCore
import DeviceSim
import Foundation
import Testing
import Transport

/// The `dfu` binary over D-Bus, as on a machine with bluetoothd: a private bus, the BlueZ stand-in
/// owning `org.bluez` on it, and DeviceSim's virtual device (unpaced) as the radio behind the
/// stand-in. dfu reaches the bus through `DBUS_SYSTEM_BUS_ADDRESS` and cannot tell it from the
/// system's. One test at a time: each runs a dfu process next to the stand-in.
@Suite(.serialized, .enabled(if: PrivateDBusDaemon.daemonPath != nil, "dbus-daemon is not installed (make deps)"))
struct BlueZEndToEndTests {
    static let address = "C2:11:40:55:7A:01"
    static let name = "sensor-12"
    static let image = "firmware-samples/images/blinky-ecdsa-p256-1.1.0.signed.bin"
    static let key = "firmware-samples/keys/TEST-ONLY-ecdsa-p256.pub.pem"

    /// A bench with one virtual device (`sim:timescale=0,…`) advertising the SMP service. A
    /// Connect to an address nobody answers gives up after 1 s (bluetoothd's is longer).
    private func withDevice<T: Sendable>(_ sim: String = "", configure: (inout BlueZStandInDevice) -> Void = { _ in },
                                         _ body: (BlueZStandInBench, VirtualPeripheral) async throws -> T) async throws -> T {
        try await BlueZStandInBench.run(timing: BlueZStandInTiming(connectAttemptTimeout: .seconds(1))) { bench in
            let options = try SimOptions.parse("sim:timescale=0" + (sim.isEmpty ? "" : "," + sim))
            let peripheral = try await VirtualPeripheral.serve(options, on: bench.connector)
            var device = BlueZStandInDevice(
                address: Self.address,
                advertisement: BlueZStandInAdvertisement(name: Self.name, services: [DeviceGATT.smpService], rssi: -55),
                connector: bench.connector, peer: peripheral.identity)
            configure(&device)
            try await bench.requireStandIn().add(device)
            let result = try await body(bench, peripheral)
            #expect(bench.standIn?.problems == [])
            return result
        }
    }

    @Test func scanListsTheVirtualDevice() async throws {
        try await withDevice { bench, _ in
            let run = try await BlueZDFUProcess.run(["scan", "--timeout", "3"], bus: bench.busAddress)
            #expect(run.exitCode == 0, "\(run.output)")
            let row = try #require(run.stdoutLines.first { $0.contains(Self.address) }, "\(run.output)")
            #expect(row.contains(Self.name))
            #expect(row.contains("-55"))
            #expect(row.contains("SMP"))
        }
    }

    @Test func scanJSONHasTheDeviceAndAResult() async throws {
        try await withDevice { bench, _ in
            let run = try await BlueZDFUProcess.run(["scan", "--timeout", "3", "--json"], bus: bench.busAddress)
            #expect(run.exitCode == 0, "\(run.output)")
            let objects = try run.stdoutLines.map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            }
            #expect(objects.contains { $0["address"] as? String == Self.address && $0["name"] as? String == Self.name })
            #expect(objects.last?["event"] as? String == "result")
        }
    }

    @Test func infoReadsTheDevice() async throws {
        try await withDevice("version=1.0.0,battery=77") { bench, _ in
            let run = try await BlueZDFUProcess.run(["info", "--device", Self.address], bus: bench.busAddress)
            #expect(run.exitCode == 0, "\(run.output)")
            #expect(run.stdout.contains("1.0.0"))
            #expect(run.stdout.contains("77 %"))
            #expect(run.stdout.contains("498"))
        }
    }

    /// The whole update over D-Bus: upload through the AcquireWrite fd, test, reset (the device
    /// drops the link and reboots), reconnect, version check, confirm.
    @Test func flashByAddressTestConfirmsThroughTheReboot() async throws {
        try await withDevice { bench, peripheral in
            let run = try await BlueZDFUProcess.run(["flash", Self.image, "--device", Self.address, "--key", Self.key],
                                                    bus: bench.busAddress)
            #expect(run.exitCode == 0, "\(run.output)")
            #expect(run.stdout.contains("device reports 1.1.0+0, active"), "\(run.output)")
            #expect(run.stdoutLines.last?.hasPrefix("OK: 1.1.0+0 is running and confirmed") == true, "\(run.output)")
            let device = await peripheral.snapshot
            #expect(device.firmwareRevision.hasPrefix("1.1.0"))
            #expect(device.boots.count == 1)
            let statistics = try await bench.requireStandIn().statistics(address: Self.address)
            #expect(statistics.connections >= 2, "one before the reboot, one after")
            #expect(statistics.fdWrites > 0)
            #expect(statistics.linkLosses >= 1, "the reset drops the link from the device's side")
        }
    }

    /// By name, with a device that comes back under another address after its reboot.
    @Test func flashByNameFollowsANewAddressAfterTheReboot() async throws {
        try await withDevice(configure: { $0.addressAfterReboot = "C2:11:40:55:7A:02" }) { bench, peripheral in
            let run = try await BlueZDFUProcess.run(["flash", Self.image, "--device", "name:" + Self.name, "--key", Self.key],
                                                    bus: bench.busAddress)
            #expect(run.exitCode == 0, "\(run.output)")
            #expect(await peripheral.snapshot.firmwareRevision.hasPrefix("1.1.0"))
        }
    }

    @Test func lowBatteryExitsFourBeforeUploading() async throws {
        try await withDevice("battery=15") { bench, peripheral in
            let run = try await BlueZDFUProcess.run(["flash", Self.image, "--device", Self.address, "--key", Self.key],
                                                    bus: bench.busAddress)
            #expect(run.exitCode == 4, "\(run.output)")
            #expect(run.stderr.contains("battery is at 15 %"), "\(run.stderr)")
            #expect(!run.stdout.contains("uploading"), "\(run.stdout)")
            #expect(await peripheral.snapshot.firmwareRevision.hasPrefix("1.0.0"))
        }
    }

    @Test func withoutBluetoothdFlashExitsFiveWithTheFix() async throws {
        try await BlueZStandInBench.run(bluetoothd: false) { bench in
            let run = try await BlueZDFUProcess.run(["flash", Self.image, "--device", Self.address, "--key", Self.key],
                                                    bus: bench.busAddress)
            #expect(run.exitCode == 5, "\(run.output)")
            #expect(run.stderr.contains("bluetoothd is not running"), "\(run.stderr)")
            #expect(run.stderr.contains("systemctl start bluetooth"), "\(run.stderr)")
        }
    }

    @Test func busPolicyRefusingBluezExitsFiveNamingTheGroup() async throws {
        try await BlueZStandInBench.run(policyDeniesBluez: true) { bench in
            let run = try await BlueZDFUProcess.run(["info", "--device", Self.address], bus: bench.busAddress)
            #expect(run.exitCode == 5, "\(run.output)")
            #expect(run.stderr.contains("'bluetooth' group"), "\(run.stderr)")
        }
    }

    @Test func poweredOffAdapterExitsFiveWithTheFix() async throws {
        try await BlueZStandInBench.run(adapters: [BlueZStandInAdapter(powered: false)]) { bench in
            let run = try await BlueZDFUProcess.run(["scan", "--timeout", "3"], bus: bench.busAddress)
            #expect(run.exitCode == 5, "\(run.output)")
            #expect(run.stderr.contains("bluetoothctl power on"), "\(run.stderr)")
        }
    }
}
