import BlueZStandIn
import BlueZTransport
import Harness
import Testing
import Transport

/// `BlueZConnector.connect(toAnyOf:)`: one discovery for every peer (an nRF5 application and its
/// bootloader at the address + 1 or under a name), not a turn each.
@Suite(.enabled(if: standInAvailable, standInSkipReason))
struct BlueZBusAnyOfTests {
    /// The first peer is an address nobody advertises: taking turns would spend its first turn
    /// looking for it alone; one discovery hears the second at once.
    @Test func theAdvertisingPeerIsReachedWithoutATurnOnTheSilentOne() async throws {
        let silent = PeerIdentity("C2:11:40:55:7A:02")
        try await BlueZStandInBench.run { bench in
            let peripheral = try await bench.addTestPeripheral(address: BlueZBus.address)
            let central = try await BlueZBus.open(bench)
            let lines = BlueZBus.Lines()
            let connector = central.connector(expecting: [BlueZBus.smpService]) { lines.append($0) }
            let (peer, link) = try await HangGuard.within("connect to any") {
                try await connector.connect(toAnyOf: [silent, PeerIdentity(BlueZBus.address)], deadline: .now + .seconds(20))
            }
            #expect(peer == PeerIdentity(BlueZBus.address))
            try await link.writeWithoutResponse([5], to: BlueZBus.smp)
            try await HangGuard.within("the write") { await peripheral.waitForWrites(1) }
            #expect(lines.all.contains { $0.hasPrefix("looking for any of ") }, "\(lines.all)")
            #expect(!lines.all.contains("looking for \(silent.redacted)"), "\(lines.all)")
            await link.disconnect()
            central.close()
        }
    }

    /// A Nordic bootloader at the address + 1 activates the new application, which starts at the
    /// application's address: the reconnect goes to either. The bootloader's object still reads
    /// Connected=true (bluetoothd's Connected=false trails the sockets' hang-up) though our link
    /// to it has ended: it must not be dialled as if known to be there, for the whole deadline,
    /// while the application advertises (the `bluez-nordic-truncate` rerun: 60 s, then a failure
    /// of an update that had succeeded).
    @Test func aPeerWhoseLinkOfOursJustEndedIsNotTakenAsKnownToBeThere() async throws {
        let application = "C2:11:40:55:7A:00"
        let timing = BlueZStandInTiming(linkLossSignalDelay: .seconds(2))
        try await BlueZStandInBench.run(timing: timing) { bench in
            let bootloader = try await bench.addTestPeripheral(address: BlueZBus.address, name: "Dfu40213")
            try await bench.addTestPeripheral(address: application, name: "nrf52-app")
            let standIn = try bench.requireStandIn()
            await standIn.setAdvertising(false, address: application)
            let central = try await BlueZBus.open(bench)
            let lines = BlueZBus.Lines()
            let connector = central.connector(expecting: [BlueZBus.smpService]) { lines.append($0) }
            let first = try await BlueZBus.connect(connector, BlueZBus.address)
            // The bootloader resets into the application: gone from its address, the application back at its own.
            await standIn.setAdvertising(false, address: BlueZBus.address)
            await bootloader.dropLink()
            _ = try await BlueZBus.eventsUntilDisconnected(first)
            await standIn.setAdvertising(true, address: application)
            let started = ContinuousClock.now
            let (peer, link) = try await HangGuard.within("connect to any") {
                try await connector.connect(toAnyOf: [PeerIdentity(application), PeerIdentity(BlueZBus.address)],
                                            deadline: .now + .seconds(10))
            }
            #expect(peer == PeerIdentity(application), "\(lines.all)")
            #expect(ContinuousClock.now - started < .seconds(3), "\(lines.all)")
            await link.disconnect()
            central.close()
        }
    }

    /// A name peer among them: the device advertising that name with the expected service.
    @Test func aNamePeerIsReachedByItsAdvertisedName() async throws {
        try await BlueZStandInBench.run { bench in
            try await bench.addTestPeripheral(address: BlueZBus.address, name: "DfuTarg")
            let central = try await BlueZBus.open(bench)
            let connector = central.connector(expecting: [BlueZBus.smpService])
            let (peer, link) = try await HangGuard.within("connect to any") {
                try await connector.connect(toAnyOf: [PeerIdentity("C2:11:40:55:7A:02"), PeerIdentity("name:DfuTarg")],
                                            deadline: .now + .seconds(20))
            }
            #expect(peer == PeerIdentity("name:DfuTarg"))
            #expect(link.parameters.peer == PeerIdentity("name:DfuTarg"))
            await link.disconnect()
            central.close()
        }
    }

    /// `sole-name:` is a last resort: taken only after the other peers stayed silent for
    /// `lastResortDelay` (listening only, no dialling meanwhile), and only as the one device with
    /// that name and the expected service.
    @Test func aSoleNamePeerIsReachedAfterTheOthersStayedSilent() async throws {
        try await BlueZStandInBench.run { bench in
            try await bench.addTestPeripheral(address: BlueZBus.address, name: "DfuTarg")
            let central = try await BlueZBus.open(bench)
            let lines = BlueZBus.Lines()
            let connector = central.connector(expecting: [BlueZBus.smpService]) { lines.append($0) }
            let started = ContinuousClock.now
            let (peer, link) = try await HangGuard.within("connect to any") {
                try await connector.connect(toAnyOf: [PeerIdentity("C2:11:40:55:7A:02"), PeerIdentity("sole-name:DfuTarg")],
                                            deadline: .now + .seconds(20))
            }
            #expect(peer == PeerIdentity("sole-name:DfuTarg"))
            #expect(ContinuousClock.now - started >= BlueZConnector.lastResortDelay)
            #expect(!lines.all.contains { $0.contains("failed (no reply to Connect)") }, "\(lines.all)")
            await link.disconnect()
            central.close()
        }
    }

    /// A device heard once, by a controller that reports it at the first scan start only (the rig
    /// on some boots), is reached: the one discovery's device is dialled as heard, not looked for
    /// again (its stop cleared the RSSI), and a last resort heard in the first phase, while only
    /// the others were wanted, counts in the second.
    @Test(arguments: [("Dfu12345", "name:Dfu12345"), ("DfuTarg", "sole-name:DfuTarg")])
    func aPeerHeardAtTheFirstScanStartOnlyIsReached(name: String, peer wanted: String) async throws {
        try await BlueZStandInBench.run { bench in
            try await bench.addTestPeripheral(address: BlueZBus.address, name: name) { $0.lastScanStartHeard = 1 }
            let central = try await BlueZBus.open(bench)
            let lines = BlueZBus.Lines()
            let connector = central.connector(expecting: [BlueZBus.smpService]) { lines.append($0) }
            let (peer, link) = try await HangGuard.within("connect to any") {
                try await connector.connect(toAnyOf: [PeerIdentity("C2:11:40:55:7A:02"), PeerIdentity(wanted)],
                                            deadline: .now + .seconds(20))
            }
            #expect(peer == PeerIdentity(wanted), "\(lines.all)")
            await link.disconnect()
            central.close()
        }
    }

    /// Two devices with the default name, one heard only in the first phase: still ambiguous.
    @Test func aSecondSoleNameDeviceHeardOnlyInTheFirstPhaseStillCounts() async throws {
        try await BlueZStandInBench.run { bench in
            try await bench.addTestPeripheral(address: BlueZBus.address, name: "DfuTarg")
            try await bench.addTestPeripheral(address: "C2:11:40:55:7A:03", name: "DfuTarg") { $0.lastScanStartHeard = 1 }
            let central = try await BlueZBus.open(bench)
            let connector = central.connector(expecting: [BlueZBus.smpService])
            await #expect(throws: LinkError.ambiguous(PeerIdentity("sole-name:DfuTarg"), count: 2)) {
                _ = try await HangGuard.within("connect to any") {
                    try await connector.connect(toAnyOf: [PeerIdentity("C2:11:40:55:7A:02"), PeerIdentity("sole-name:DfuTarg")],
                                                deadline: .now + .seconds(20))
                }
            }
            central.close()
        }
    }

    @Test func twoDevicesWithTheSoleNameAreAmbiguous() async throws {
        try await BlueZStandInBench.run { bench in
            try await bench.addTestPeripheral(address: BlueZBus.address, name: "DfuTarg")
            try await bench.addTestPeripheral(address: "C2:11:40:55:7A:03", name: "DfuTarg")
            let central = try await BlueZBus.open(bench)
            let connector = central.connector(expecting: [BlueZBus.smpService])
            await #expect(throws: LinkError.ambiguous(PeerIdentity("sole-name:DfuTarg"), count: 2)) {
                _ = try await HangGuard.within("connect to any") {
                    try await connector.connect(toAnyOf: [PeerIdentity("C2:11:40:55:7A:02"), PeerIdentity("sole-name:DfuTarg")],
                                                deadline: .now + .seconds(20))
                }
            }
            central.close()
        }
    }
}
