import BlueZStandIn
import DFUCore
import DeviceSim
import Foundation
import Testing
import Transport

/// The pairing tests' bench: the virtual device behind the BlueZ stand-in as `secure-12` at
/// `address`, its SMP characteristic requiring an authenticated link with `passkey`. After `body`
/// the stand-in must have seen no problem and no AcquireNotify on an insecure link (which takes
/// bluetoothd 5.66 down).
enum BlueZSecureBench {
    static func run<T: Sendable>(address: String, passkey: UInt32, io: BlueZStandInDeviceIO = .keyboardOnly,
                                 _ body: (BlueZStandInBench, VirtualPeripheral) async throws -> T) async throws -> T {
        try await BlueZStandInBench.run(timing: BlueZStandInTiming(connectAttemptTimeout: .seconds(1))) { bench in
            let peripheral = try await VirtualPeripheral.serve(try SimOptions.parse("sim:timescale=0"), on: bench.connector)
            var device = BlueZStandInDevice(
                address: address,
                advertisement: BlueZStandInAdvertisement(name: "secure-12", services: [DeviceGATT.smpService]),
                connector: bench.connector, peer: peripheral.identity)
            device.security = .authenticate
            device.passkey = passkey
            device.io = io
            try await bench.requireStandIn().add(device)
            let result = try await body(bench, peripheral)
            #expect(bench.standIn?.problems == [])
            let statistics = try await bench.requireStandIn().statistics(address: address)
            #expect(statistics.acquireNotifyWhileInsecure == 0, "AcquireNotify on an insecure link takes bluetoothd 5.66 down")
            return result
        }
    }
}
