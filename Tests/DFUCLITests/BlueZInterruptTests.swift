import BlueZStandIn
import DeviceSim
import Foundation
import Harness
import Testing
import Transport
#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C during `dfu flash` over BlueZ: bluetoothd keeps an LE link whose client has gone, so dfu
/// must close the connection (Device1.Disconnect) before it ends with 130, or the device stays
/// taken from every other central.
@Suite(.serialized, .enabled(if: PrivateDBusDaemon.daemonPath != nil, "dbus-daemon is not installed (make deps)"))
struct BlueZInterruptTests {
    static let address = "C2:11:40:55:7A:02"

    @Test func interruptedFlashDisconnectsTheDeviceThenExits130() async throws {
        try await BlueZStandInBench.run { bench in
            // Real time, and the reply to the chunk at 10 % held back for a minute: the upload
            // sits in the transfer stage, connected, for as long as the test needs.
            let connector = MemoryConnector(clock: .realTime())
            let options = try SimOptions.parse("sim:fault=delay@10%:60000ms")
            let peripheral = try await VirtualPeripheral.serve(options, on: connector)
            let standIn = try bench.requireStandIn()
            await standIn.add(BlueZStandInDevice(
                address: Self.address,
                advertisement: BlueZStandInAdvertisement(name: "held", services: [DeviceGATT.smpService], rssi: -50),
                connector: connector, peer: peripheral.identity))

            let run = try await BlueZDFUProcess.run(
                ["flash", "firmware-samples/images/blinky-ecdsa-p256-1.1.0.signed.bin", "--device", Self.address,
                 "--key", "firmware-samples/keys/TEST-ONLY-ecdsa-p256.pub.pem"],
                bus: bench.busAddress) { pid in
                // Interrupt once the upload has begun (chunks went through the AcquireWrite socket):
                // 7 writes read the device (parameters, the 2-write reassembly echo, the SUIT probe,
                // image list, slot info, bootloader mode), then the first packet's 5 writes.
                try await HangGuard.within("the upload to start", .seconds(30)) {
                    while await standIn.statistics(address: Self.address).fdWrites < 12 {
                        try await Task.sleep(for: .milliseconds(20))
                    }
                }
                #expect(kill(pid, SIGINT) == 0)
            }

            #expect(run.exited && run.exitCode == 130, "\(run.output)")
            #expect(run.stderr.contains("dfu: interrupted"), "\(run.stderr)")
            #expect(!run.stderr.contains("did not close in time"), "\(run.stderr)")
            let statistics = await standIn.statistics(address: Self.address)
            #expect(statistics.disconnectCalls >= 1, "dfu left the link up: \(statistics)")
        }
    }
}
