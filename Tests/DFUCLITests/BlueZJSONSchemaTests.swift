import BlueZStandIn
import DFUCore
import DeviceSim
import Testing

/// `dfu scan --json` against the BlueZ stand-in, checked against the schema as `JSONSchemaTests`
/// checks every other command. A suite of the `BlueZ` group, so it runs in the BlueZ batch of
/// `make test`: among the heavy CLI suites the stand-in (in the test process) was starved and the
/// scan sometimes ended before both devices were reported.
@Suite(.serialized, .endToEnd) struct BlueZJSONSchemaTests {
    /// An SMP device and a Nordic one behind the BlueZ stand-in: `device` lines, then the result.
    @Test(.enabled(if: PrivateDBusDaemon.daemonPath != nil, "dbus-daemon is not installed (make deps)"))
    func scanWithDevicesMatchesTheSchema() async throws {
        try await BlueZStandInBench.run { bench in
            let peripheral = try await VirtualPeripheral.serve(try SimOptions.parse("sim:timescale=0"), on: bench.connector)
            for (address, service) in [("C2:11:40:55:7A:01", DeviceGATT.smpService), ("E8:1F:22:90:0B:7C", NordicDFUService.service)] {
                try await bench.requireStandIn().add(BlueZStandInDevice(
                    address: address, advertisement: BlueZStandInAdvertisement(name: "dev-\(address.suffix(2))", services: [service]),
                    connector: bench.connector, peer: peripheral.identity))
            }
            let run = try await BlueZDFUProcess.run(["scan", "--timeout", "3", "--json"], bus: bench.busAddress)
            #expect(try JSONSchemaTests.validLines(run, command: "scan", exitCode: 0) == ["device", "device", "result"])
        }
    }
}
