@testable import DFUCore
import ExitCodes
import Foundation
import Testing

@Suite struct PreconditionsTests {
    let v110 = ImageVersion(major: 1, minor: 1, revision: 0)
    let v100 = ImageVersion(major: 1, minor: 0, revision: 0)

    func check(battery: Int? = 80, running: ImageVersion? = nil, slot: Int? = nil, host: HostPower = .mains,
               configure: (inout UpdateOptions) -> Void = { _ in }) -> Preconditions.Verdict {
        var options = UpdateOptions()
        configure(&options)
        let device = DeviceFacts(runningVersion: running ?? v100, batteryLevel: battery, slotSize: slot)
        return Preconditions.check(imageVersion: v110, imageSize: 50_000, device: device, host: host, options: options)
    }

    @Test func passesNewerImageOnChargedDevice() {
        let verdict = check()
        #expect(verdict.passed)
        #expect(verdict.warnings.isEmpty)
    }

    @Test func refusesBatteryBelowMinimum() {
        #expect(check(battery: 15).failures == [.batteryLow(level: 15, minimum: 30)])
        #expect(check(battery: 30).passed)
        #expect(check(battery: 15) { $0.minimumBattery = 10 }.passed)
    }

    @Test func refusesActivationWhenTheBatteryFellBelowTheMinimum() {
        #expect(Preconditions.batteryBeforeActivation(level: 12, options: UpdateOptions())
                == .batteryFell(level: 12, minimum: 30))
        #expect(Preconditions.batteryBeforeActivation(level: 30, options: UpdateOptions()) == nil)
        var lower = UpdateOptions()
        lower.minimumBattery = 10
        #expect(Preconditions.batteryBeforeActivation(level: 12, options: lower) == nil)
        let said = PreconditionFailure.batteryFell(level: 12, minimum: 20).description
        #expect(said.hasPrefix("the device's battery fell to 12 % during the transfer (minimum 20 %); the image is uploaded but not activated."))
        #expect(said.contains("run the same command again"))
    }

    @Test func warnsButPassesWhenDeviceHasNoBatteryService() {
        let verdict = check(battery: nil)
        #expect(verdict.passed)
        #expect(verdict.warnings.contains { $0.contains("Battery Service") })
    }

    @Test func refusesSameOrOlderVersionUnlessDowngradeAllowed() {
        #expect(check(running: v110).failures == [.notNewer(image: v110, running: v110)])
        let newer = ImageVersion(major: 2, minor: 0, revision: 0)
        #expect(check(running: newer).failures == [.notNewer(image: v110, running: newer)])
        #expect(check(running: newer) { $0.allowDowngrade = true }.passed)
    }

    @Test func buildNumberCountsAsNewer() {
        let running = ImageVersion(major: 1, minor: 1, revision: 0, build: 0)
        var options = UpdateOptions()
        options.minimumBattery = 0
        let device = DeviceFacts(runningVersion: running)
        let verdict = Preconditions.check(imageVersion: ImageVersion(major: 1, minor: 1, revision: 0, build: 7),
                                          imageSize: 1, device: device, host: .unknown, options: options)
        #expect(verdict.passed)
    }

    @Test func refusesImageLargerThanSlot() {
        #expect(check(slot: 40_000).failures == [.imageTooLarge(size: 50_000, slotSize: 40_000)])
        #expect(check(slot: 50_000).passed)
    }

    @Test func refusesHostOnBatteryUnlessAllowed() {
        #expect(check(host: .battery(level: 40)).failures == [.hostOnBattery(level: 40)])
        #expect(check(host: .battery(level: 40)) { $0.allowHostOnBattery = true }.passed)
        #expect(check(host: .unknown).passed)
    }

    @Test func reportsEveryFailureAtOnce() {
        let verdict = check(battery: 5, running: v110, slot: 10)
        #expect(verdict.failures.count == 3)
        let error = DFUError.precondition(verdict.failures)
        #expect(error.exitStatus == .preconditionNotMet)
        #expect(error.description.contains("5 %"))
        #expect(error.description.contains("--allow-downgrade"))
    }
}

@Suite struct HostPowerReaderTests {
    func supplies(_ entries: [String: [String: String]]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("power-\(UUID().uuidString)").path
        for (name, attributes) in entries {
            let folder = root + "/" + name
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (attribute, value) in attributes {
                try (value + "\n").write(toFile: folder + "/" + attribute, atomically: true, encoding: .utf8)
            }
        }
        return root
    }

    @Test func laptopOnChargerIsMains() throws {
        let root = try supplies(["AC": ["type": "Mains", "online": "1"],
                                 "BAT0": ["type": "Battery", "status": "Charging", "capacity": "55"]])
        #expect(HostPowerReader(root: root).read() == .mains)
    }

    @Test func laptopUnpluggedIsBatteryWithLevel() throws {
        let root = try supplies(["AC": ["type": "Mains", "online": "0"],
                                 "BAT0": ["type": "Battery", "status": "Discharging", "capacity": "42"]])
        #expect(HostPowerReader(root: root).read() == .battery(level: 42))
    }

    @Test func peripheralBatteryIsIgnored() throws {
        let root = try supplies(["hidpp_battery_0": ["type": "Battery", "scope": "Device", "status": "Discharging",
                                                     "capacity": "10"]])
        #expect(HostPowerReader(root: root).read() == .unknown)
    }

    @Test func machineWithoutPowerSuppliesIsUnknown() {
        #expect(HostPowerReader(root: "/nonexistent-\(UUID().uuidString)").read() == .unknown)
    }
}
