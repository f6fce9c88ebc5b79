import BlueZStandIn
import BlueZTransport
import Harness
import Testing
import Transport

/// `BlueZCentral.open` against the stand-in: which adapter it takes, and the one `BlueZError` each
/// unusable setup gives (every one is exit 5 with a fix in the CLI).
@Suite(.enabled(if: standInAvailable, standInSkipReason))
struct BlueZBusAdapterTests {
    @Test func noOwnerOfOrgBluezIsBluetoothdNotRunning() async throws {
        try await BlueZStandInBench.run(bluetoothd: false) { bench in
            #expect(await BlueZBus.openError(bench) == .bluetoothdNotRunning)
        }
    }

    @Test func busPolicyRefusingBluezIsAccessDenied() async throws {
        try await BlueZStandInBench.run(policyDeniesBluez: true) { bench in
            let error = await BlueZBus.openError(bench)
            guard case .accessDenied(let detail)? = error else {
                Issue.record("expected .accessDenied, got \(String(describing: error))")
                return
            }
            #expect(detail.contains("AccessDenied"))
            #expect(error?.description.contains("'bluetooth' group") == true)
        }
    }

    @Test func noAdapterAtAll() async throws {
        try await BlueZStandInBench.run(adapters: []) { bench in
            #expect(await BlueZBus.openError(bench) == .noAdapter)
        }
    }

    @Test func onlyAdapterPoweredOff() async throws {
        try await BlueZStandInBench.run(adapters: [BlueZStandInAdapter(powered: false)]) { bench in
            #expect(await BlueZBus.openError(bench) == .adapterPoweredOff("hci0"))
            #expect(await BlueZBus.openError(bench, adapter: "hci0") == .adapterPoweredOff("hci0"))
        }
    }

    @Test func unknownAdapterNamesTheOnesThere() async throws {
        let adapters = [BlueZStandInAdapter(name: "hci0"), BlueZStandInAdapter(name: "hci1", address: "00:AA:01:00:00:01")]
        try await BlueZStandInBench.run(adapters: adapters) { bench in
            #expect(await BlueZBus.openError(bench, adapter: "hci7") == .adapterNotFound("hci7", available: ["hci0", "hci1"]))
        }
    }

    /// `dfu batch --adapter all`: the powered ones, by name; none powered is BlueZ's own error.
    @Test func poweredAdaptersListsThePoweredOnesOnly() async throws {
        let adapters = [BlueZStandInAdapter(name: "hci0"),
                        BlueZStandInAdapter(name: "hci1", address: "00:AA:01:00:00:01", powered: false),
                        BlueZStandInAdapter(name: "hci2", address: "00:AA:01:00:00:02")]
        try await BlueZStandInBench.run(adapters: adapters) { bench in
            let listed = try await BlueZCentral.poweredAdapters(bus: .address(bench.busAddress))
            #expect(listed == ["hci0", "hci2"])
        }
        try await BlueZStandInBench.run(adapters: [BlueZStandInAdapter(powered: false)]) { bench in
            do throws(BlueZError) {
                let listed = try await BlueZCentral.poweredAdapters(bus: .address(bench.busAddress))
                Issue.record("no adapter is powered, yet it listed \(listed)")
            } catch {
                #expect(error == .adapterPoweredOff("hci0"))
            }
        }
    }

    @Test func defaultIsTheFirstPoweredAdapterAndANamedOneIsTaken() async throws {
        let adapters = [BlueZStandInAdapter(name: "hci0", powered: false),
                        BlueZStandInAdapter(name: "hci1", address: "00:AA:01:00:00:01"),
                        BlueZStandInAdapter(name: "hci2", address: "00:AA:01:00:00:02")]
        try await BlueZStandInBench.run(adapters: adapters) { bench in
            let central = try await BlueZBus.open(bench)
            #expect(central.adapterName == "hci1")
            #expect(central.adapterAddress == "00:AA:01:00:00:01")
            central.close()
            let named = try await BlueZBus.open(bench, adapter: "hci2")
            #expect(named.adapterName == "hci2")
            named.close()
        }
    }

    /// bluetoothd gone while a scan runs (it crashed or was stopped): the scan says so.
    @Test func bluetoothdLeavingDuringAScanIsReported() async throws {
        try await BlueZStandInBench.run { bench in
            let central = try await BlueZBus.open(bench)
            let scan = Task { () async -> BlueZError? in
                do throws(BlueZError) {
                    _ = try await central.scan(BlueZScanFilter(), timeout: .seconds(30))
                    return nil
                } catch {
                    return error
                }
            }
            let standIn = try bench.requireStandIn()
            // Leave only once the scan runs, so the failure is the scan's, not open's.
            try await HangGuard.within("discovery to start") { await standIn.waitUntilDiscovering() }
            await standIn.stop()
            #expect(try await HangGuard.within("the scan to end") { await scan.value } == .bluetoothdNotRunning)
            central.close()
        }
    }
}
