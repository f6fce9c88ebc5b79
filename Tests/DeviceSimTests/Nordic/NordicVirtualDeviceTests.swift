import DFUCore
import DeviceSim
import Testing
import Transport

/// The whole simulated nRF52, sans I/O: app ⇄ bootloader, addresses, resets and what survives them.
@Suite struct NordicVirtualDeviceTests {
    struct Rig {
        var device: NordicVirtualDevice
        var now = MonotonicInstant(sinceOrigin: .zero)

        init(_ text: String = "sim:protocol=nordic,id=C0:11:22:33:44:FF") throws {
            device = try SimOptions.parse(text).makeNordicDevice()
        }

        mutating func handle(_ event: NordicVirtualDevice.Event) -> [NordicVirtualDevice.Action] {
            device.handle(event, now: now)
        }

        /// Moves time on to the next deadline and runs it.
        mutating func wake() -> [NordicVirtualDevice.Action] {
            guard let due = device.nextDeadline else { return [] }
            now = due
            return handle(.tick)
        }

        mutating func enterBootloader(name: String? = nil) -> [NordicVirtualDevice.Action] {
            _ = handle(.connected)
            _ = handle(.subscribed(NordicDeviceGATT.buttonless))
            if let name {
                _ = handle(.write(NordicDeviceGATT.buttonless, [0x02, UInt8(name.utf8.count)] + Array(name.utf8), withResponse: true))
            }
            var actions = handle(.write(NordicDeviceGATT.buttonless, [0x01], withResponse: true))
            _ = handle(.disconnected)
            actions += wake()
            return actions
        }

        /// Connects to the bootloader and writes `bytes` on the Control Point; its notifications.
        mutating func cp(_ bytes: [UInt8]) -> [[UInt8]] {
            handle(.write(NordicDeviceGATT.controlPoint, bytes, withResponse: true)).compactMap {
                if case .notify(NordicDeviceGATT.controlPoint, let value) = $0 { value } else { nil }
            }
        }

        mutating func packet(_ bytes: ArraySlice<UInt8>) {
            var start = bytes.startIndex
            while start < bytes.endIndex {
                let end = min(start + 244, bytes.endIndex)
                _ = handle(.write(NordicDeviceGATT.packet, Array(bytes[start ..< end]), withResponse: false))
                start = end
            }
        }

        mutating func update(_ image: NordicPackage.Image) -> [[UInt8]] {
            _ = handle(.connected)
            _ = handle(.subscribed(NordicDeviceGATT.controlPoint))
            _ = cp([0x01, 0x01] + NordicBench.le32(UInt32(image.initPacket.bytes.count)))
            packet(image.initPacket.bytes[...])
            var answers = cp([0x04])
            var offset = 0
            while offset < image.firmware.count {
                let end = min(offset + 4096, image.firmware.count)
                answers += cp([0x01, 0x02] + NordicBench.le32(UInt32(end - offset)))
                packet(image.firmware[offset ..< end])
                answers += cp([0x04])
                offset = end
            }
            return answers
        }
    }

    @Test func buttonlessEntryIndicatesThenComesBackAsTheBootloaderAtAddressPlusOneWrapping() throws {
        var rig = try Rig()
        _ = rig.handle(.connected)
        _ = rig.handle(.subscribed(NordicDeviceGATT.buttonless))
        let actions = rig.handle(.write(NordicDeviceGATT.buttonless, [0x01], withResponse: true))
        let app = PeerIdentity("C0:11:22:33:44:FF")
        #expect(actions == [.notify(NordicDeviceGATT.buttonless, [0x20, 0x01, 0x01]), .offline(app), .dropLink(flush: true)])
        #expect(rig.device.currentIdentity == nil)
        #expect(rig.wake() == [.online(PeerIdentity("C0:11:22:33:44:00"), name: "DfuTarg")])
        #expect(rig.device.gattServices == NordicDeviceGATT.bootloader)
        #expect(rig.device.boots == [NordicBoot(target: .bootloader, reason: .buttonless)])
    }

    @Test func setNameIsWhatTheBootloaderAdvertises() throws {
        var rig = try Rig("sim:protocol=nordic,id=C0:11:22:33:44:55")
        #expect(rig.enterBootloader(name: "Dfu12345").last == .online(PeerIdentity("C0:11:22:33:44:56"), name: "Dfu12345"))
    }

    @Test func updateBootsTheNewApplicationAtTheOriginalAddress() throws {
        let image = try NordicSamples.image("app-signed-3.zip")
        var rig = try Rig()
        _ = rig.enterBootloader()
        let answers = rig.update(image)
        #expect(answers.allSatisfy { $0 == [0x60, 0x01, 0x01] || $0 == [0x60, 0x04, 0x01] })
        #expect(answers.count == 1 + 2 * 12)
        #expect(rig.wake() == [.online(PeerIdentity("C0:11:22:33:44:FF"), name: nil)])
        #expect(rig.device.applicationVersion == 3)
        #expect(rig.device.read(NordicDeviceGATT.firmwareRevision) == Array("0.0.3".utf8))
        #expect(rig.device.boots.last == NordicBoot(target: .application(version: 3), reason: .bootloaderReset(.updated(.application, version: 3))))
    }

    @Test func failedFinalValidationBootsTheOldApplication() throws {
        let image = try NordicSamples.image("broken/flipped-firmware-byte.zip")
        var rig = try Rig()
        _ = rig.enterBootloader()
        #expect(rig.update(image).last == [0x60, 0x04, 0x0B, 0x0C])
        _ = rig.wake()
        #expect(rig.device.applicationVersion == 1)
        #expect(rig.device.boots.last?.target == .application(version: 1))
        #expect(rig.device.gattServices == NordicDeviceGATT.application)
    }

    @Test func inactivityTimeoutReturnsToTheApplication() throws {
        var rig = try Rig()
        _ = rig.enterBootloader()
        let entered = rig.now
        let actions = rig.wake()
        #expect(rig.now == entered.advanced(by: .seconds(120)))
        #expect(actions == [.bootloader(.reset(.inactivity)), .offline(PeerIdentity("C0:11:22:33:44:00"))])
        #expect(rig.wake() == [.online(PeerIdentity("C0:11:22:33:44:FF"), name: nil)])
    }

    @Test func powerCycleLosesDataProgressButKeepsTheExecutedInitCommand() throws {
        let image = try NordicSamples.image("app-signed-3.zip")
        // SDK 15 would keep RAM progress across a link drop, but not across a power cycle.
        var rig = try Rig("sim:protocol=nordic,sdk=15,id=C0:11:22:33:44:FF")
        _ = rig.enterBootloader()
        _ = rig.handle(.connected)
        _ = rig.handle(.subscribed(NordicDeviceGATT.controlPoint))
        _ = rig.cp([0x01, 0x01] + NordicBench.le32(UInt32(image.initPacket.bytes.count)))
        rig.packet(image.initPacket.bytes[...])
        #expect(rig.cp([0x04]) == [[0x60, 0x04, 0x01]])
        _ = rig.cp([0x01, 0x02] + NordicBench.le32(4096))
        rig.packet(image.firmware[0 ..< 2048])
        #expect(rig.handle(.powerCycle(enterBootloader: false)).contains(.dropLink(flush: false)))
        _ = rig.wake()
        #expect(rig.device.boots.last == NordicBoot(target: .application(version: 1), reason: .powerCycle(enterBootloader: false)))
        _ = rig.enterBootloader()
        _ = rig.handle(.connected)
        _ = rig.handle(.subscribed(NordicDeviceGATT.controlPoint))
        let dat = image.initPacket.bytes
        #expect(rig.cp([0x06, 0x01]) == [[0x60, 0x06, 0x01] + NordicBench.le32(256) + NordicBench.le32(UInt32(dat.count)) + NordicBench.le32(CRC32.checksum(dat))])
        #expect(rig.cp([0x06, 0x02]) == [[0x60, 0x06, 0x01] + NordicBench.le32(4096) + NordicBench.le32(0) + NordicBench.le32(0)])
        // Executing the stored init command again succeeds: it is still valid.
        _ = rig.cp([0x06, 0x01])
        #expect(rig.cp([0x04]) == [[0x60, 0x04, 0x01]])
        #expect(rig.cp([0x01, 0x02] + NordicBench.le32(4096)) == [[0x60, 0x01, 0x01]])
    }

    @Test func powerCycleWithTheButtonHeldStartsTheBootloader() throws {
        var rig = try Rig()
        _ = rig.handle(.powerCycle(enterBootloader: true))
        #expect(rig.wake() == [.online(PeerIdentity("C0:11:22:33:44:00"), name: "DfuTarg")])
    }

    @Test func bootloaderTakesControlPointRequestsOnlyAsWriteRequests() throws {
        var rig = try Rig()
        _ = rig.enterBootloader()
        _ = rig.handle(.connected)
        _ = rig.handle(.subscribed(NordicDeviceGATT.controlPoint))
        #expect(rig.handle(.write(NordicDeviceGATT.packet, [0x06, 0x01], withResponse: true)) == [.refuseWrite(.writeNotPermitted)])
        #expect(rig.handle(.write(NordicDeviceGATT.controlPoint, [0x06, 0x01], withResponse: false)).isEmpty)
    }
}
