import BlueZStandIn
import DeviceSim
import Foundation
import Harness
import Testing
import Transport

/// The Bluetooth rows of docs/bad-input.md that no other test proved through the binary, over D-Bus
/// against the BlueZ stand-in on a private bus: no adapter, an adapter that is not there, a device
/// nobody hears, and a device that disappears mid-upload.
@Suite(.serialized, .enabled(if: PrivateDBusDaemon.daemonPath != nil, "dbus-daemon is not installed (make deps)"))
struct BlueZBadInputTests {
    static let address = "C2:11:40:55:7A:05"
    static let image = BlueZEndToEndTests.image
    static let key = BlueZEndToEndTests.key

    static func flash(_ extra: [String] = [], bench: BlueZStandInBench) async throws -> DFURun {
        try await BlueZDFUProcess.run(["flash", image, "--device", address, "--key", key] + extra, bus: bench.busAddress)
    }

    @Test func noAdapterAtAllExitsFiveWithTheFix() async throws {
        try await BlueZStandInBench.run(adapters: []) { bench in
            let run = try await Self.flash(bench: bench)
            #expect(run.exitCode == 5, "\(run.output)")
            #expect(run.stderr.contains("dfu: error: no Bluetooth adapter found; connect one"), "\(run.stderr)")
            #expect(!run.stdout.contains("connected"), "\(run.stdout)")
        }
    }

    @Test func anAdapterThatIsNotThereExitsFiveNamingThoseThatAre() async throws {
        try await BlueZStandInBench.run { bench in
            let run = try await Self.flash(["--adapter", "hci7"], bench: bench)
            #expect(run.exitCode == 5, "\(run.output)")
            #expect(run.stderr.contains("adapter hci7 not found (available: hci0); pick one with --adapter."), "\(run.stderr)")
        }
    }

    /// Nothing advertises at the address: dfu looks for it until --connect-timeout, then says what
    /// to check. The image was checked first; nothing was connected.
    @Test func aDeviceNobodyHearsIsNotFoundInTime() async throws {
        try await BlueZStandInBench.run(timing: BlueZStandInTiming(connectAttemptTimeout: .seconds(1))) { bench in
            let run = try await Self.flash(["--connect-timeout", "3"], bench: bench)
            #expect(run.exitCode == 5, "\(run.output)")
            #expect(run.stderr.contains("could not connect to …:7A:05 in time. Check that it is powered, advertising and in range"),
                    "\(run.stderr)")
            #expect(run.stdout.contains("image checked") && !run.stdout.contains("connected"), "\(run.stdout)")
            #expect(try await bench.requireStandIn().statistics(address: Self.address).connections == 0)
        }
    }

    /// Over Bluetooth the device's protocol shows only once connected: an MCUboot image for the
    /// virtual nRF52 (Nordic Secure DFU, no SMP service) is the wrong file, said as `sim:` and
    /// `udp:` devices say it before connecting (exit 2), after reading its services and before any write.
    @Test func aBluetoothDeviceOfTheOtherProtocolIsRefusedBeforeAnyWrite() async throws {
        try await BlueZStandInBench.run(timing: BlueZStandInTiming(connectAttemptTimeout: .seconds(1))) { bench in
            let options = try SimOptions.parse("sim:protocol=nordic,timescale=0,inactivity=off")
            let peripheral = try await VirtualNordicPeripheral.serve(options, on: bench.connector)
            let standIn = try bench.requireStandIn()
            await standIn.add(BlueZStandInDevice(
                address: Self.address, advertisement: BlueZStandInAdvertisement(name: "nrf52", services: [], rssi: -50),
                connector: bench.connector, peer: peripheral.applicationIdentity))
            let run = try await Self.flash(bench: bench)
            #expect(run.exitCode == 2, "\(run.output)")
            #expect(run.stderr.contains("dfu: error: wrong file for this device: blinky-ecdsa-p256-1.1.0.signed.bin is an update for SMP (MCUmgr), "
                                        + "but …:7A:05 speaks Nordic Secure DFU; it takes a Nordic DFU package"), "\(run.stderr)")
            #expect(run.stderr.contains("Nothing was sent."), "\(run.stderr)")
            #expect(await standIn.statistics(address: Self.address).fdWrites == 0)
        }
    }

    /// The other way round: a Nordic package for an SMP device (no DFU Control Point, no
    /// buttonless service) is the wrong file too, and nothing is written.
    @Test func aNordicPackageForABluetoothSMPDeviceIsTheWrongFile() async throws {
        try await BlueZStandInBench.run(timing: BlueZStandInTiming(connectAttemptTimeout: .seconds(1))) { bench in
            let peripheral = try await VirtualPeripheral.serve(try SimOptions.parse("sim:timescale=0"), on: bench.connector)
            let standIn = try bench.requireStandIn()
            await standIn.add(BlueZStandInDevice(
                address: Self.address,
                advertisement: BlueZStandInAdvertisement(name: "zephyr", services: [DeviceGATT.smpService], rssi: -50),
                connector: bench.connector, peer: peripheral.identity))
            let run = try await BlueZDFUProcess.run(
                ["flash", "firmware-samples/nordic/app-signed-3.zip", "--device", Self.address,
                 "--key", "firmware-samples/nordic/keys/TEST-ONLY-nordic-p256.pub.pem"], bus: bench.busAddress)
            #expect(run.exitCode == 2, "\(run.output)")
            #expect(run.stderr.contains("dfu: error: wrong file for this device: app-signed-3.zip is an update for Nordic Secure DFU, "
                                        + "but …:7A:05 speaks SMP (MCUmgr)"), "\(run.stderr)")
            #expect(await standIn.statistics(address: Self.address).fdWrites == 0)
        }
    }

    /// Mid-upload the device stops advertising and its link drops (out of range, battery pulled):
    /// dfu looks for it again until --connect-timeout, then exits 6 saying to run the command again
    /// (the upload resumes from what the device took); the device still runs its old image.
    @Test func aDeviceThatDisappearsMidUploadExitsSixResumable() async throws {
        // Real time, and the reply to the chunk at 10 % held back: the upload is in flight when the
        // device goes.
        let connector = MemoryConnector(clock: .realTime())
        try await BlueZStandInBench.run(timing: BlueZStandInTiming(connectAttemptTimeout: .seconds(1)),
                                        connector: connector) { bench in
            let peripheral = try await VirtualPeripheral.serve(try SimOptions.parse("sim:fault=delay@10%:60000ms"), on: connector)
            let standIn = try bench.requireStandIn()
            await standIn.add(BlueZStandInDevice(
                address: Self.address,
                advertisement: BlueZStandInAdvertisement(name: "leaving", services: [DeviceGATT.smpService], rssi: -50),
                connector: connector, peer: peripheral.identity))
            let run = try await BlueZDFUProcess.run(
                ["flash", Self.image, "--device", Self.address, "--key", Self.key, "--connect-timeout", "3"],
                bus: bench.busAddress) { _ in
                // As BlueZInterruptTests: 7 writes read the device, then the first packet's 5.
                try await HangGuard.within("the upload to start", .seconds(30)) {
                    while await standIn.statistics(address: Self.address).fdWrites < 12 {
                        try await Task.sleep(for: .milliseconds(20))
                    }
                }
                await standIn.setAdvertising(false, address: Self.address)
                await standIn.dropLink(address: Self.address)
            }
            #expect(run.exitCode == 6, "\(run.output)")
            #expect(run.stdout.contains("uploading"), "\(run.stdout)")
            #expect(run.stderr.contains("warning: the link to …:7A:05 was lost"), "\(run.stderr)")
            #expect(run.stderr.contains("dfu: error: upload interrupted: the Bluetooth link was lost and not restored within "
                                        + "3.0 seconds. Bring the device within range and retry; the upload resumes."),
                    "\(run.stderr)")
            #expect(await peripheral.snapshot.firmwareRevision.hasPrefix("1.0.0"))
        }
    }
}
