import BlueZStandIn
import DeviceSim
import Foundation
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

            let capture = try DFUProcessCapture(
                ["flash", "firmware-samples/images/blinky-ecdsa-p256-1.1.0.signed.bin", "--device", Self.address,
                 "--key", "firmware-samples/keys/TEST-ONLY-ecdsa-p256.pub.pem"],
                environment: ["DBUS_SYSTEM_BUS_ADDRESS": bench.busAddress])
            let process = capture.process
            let (ended, ending) = AsyncStream<Void>.makeStream()
            process.terminationHandler = { _ in
                ending.yield()
                ending.finish()
            }
            try process.run()
            let pid = process.processIdentifier
            let killer = Task {
                try? await Task.sleep(for: .seconds(60))
                if !Task.isCancelled { kill(pid, SIGKILL) }
            }
            defer { killer.cancel() }

            // Interrupt once the upload has begun (chunks went through the AcquireWrite socket).
            try await HangGuard.within("the upload to start", .seconds(30)) {
                while await standIn.statistics(address: Self.address).fdWrites < 3 {
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            #expect(kill(pid, SIGINT) == 0)
            for await _ in ended {}
            let run = try capture.result()

            #expect(run.exited && run.exitCode == 130, "\(run.output)")
            #expect(run.stderr.contains("dfu: interrupted"), "\(run.stderr)")
            #expect(!run.stderr.contains("did not close in time"), "\(run.stderr)")
            let statistics = await standIn.statistics(address: Self.address)
            #expect(statistics.disconnectCalls >= 1, "dfu left the link up: \(statistics)")
        }
    }
}
