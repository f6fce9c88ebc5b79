@testable import DFUCore
import Transport

/// `NordicFakeBootloader` served on the memory link as an nRF52 would appear: optionally first as
/// an application with buttonless DFU at `application`, which resets into the bootloader at
/// `bootloader` after answering `01`; after the final Execute the bootloader resets and the
/// application comes back at `application` reporting `newRevision` in Device Information.
actor NordicFakePeripheral: MemoryPeripheral {
    enum Mode: Sendable, Equatable { case application, bootloader }

    let application: PeerIdentity
    let bootloader: PeerIdentity
    private(set) var mode: Mode
    private(set) var fake: NordicFakeBootloader
    private(set) var revision: String
    private let newRevision: String
    private let connector: MemoryConnector
    private var session: MemoryPeripheralSession?
    /// How many times it reset (buttonless entry, the reset after the update).
    private(set) var resets = 0
    /// The firmware the bootloader validated and installed.
    private(set) var installed: [UInt8]?
    /// Control Point answers sent so far, and the one (by number, from 0) to replace with hostile bytes.
    private var answers = 0
    private var hostile: (index: Int, bytes: [UInt8])?

    /// Makes the `index`th Control Point answer `bytes` instead of the bootloader's.
    func replaceAnswer(_ index: Int, with bytes: [UInt8]) { hostile = (index, bytes) }
    /// Whether the reset after the final Execute comes before its answer got out.
    private var finalAnswerLost = false

    /// From now on the bootloader resets before its answer to the final Execute gets out.
    func loseTheFinalAnswer() { finalAnswerLost = true }

    init(fake: NordicFakeBootloader, startAs mode: Mode, application: PeerIdentity, bootloader: PeerIdentity,
         revision: String, newRevision: String, connector: MemoryConnector) {
        self.fake = fake
        self.mode = mode
        self.application = application
        self.bootloader = bootloader
        self.revision = revision
        self.newRevision = newRevision
        self.connector = connector
    }

    /// Registers it under both addresses, advertising only as what it runs now.
    static func serve(_ fake: NordicFakeBootloader, startAs mode: Mode, application: PeerIdentity,
                      bootloader: PeerIdentity, revision: String = "0.0.1", newRevision: String = "0.0.3",
                      on connector: MemoryConnector) async -> NordicFakePeripheral {
        let peripheral = NordicFakePeripheral(fake: fake, startAs: mode, application: application, bootloader: bootloader,
                                              revision: revision, newRevision: newRevision, connector: connector)
        await connector.register(peripheral, as: application, profile: .fast2M)
        if bootloader != application { await connector.register(peripheral, as: bootloader, profile: .fast2M) }
        await peripheral.advertise()
        return peripheral
    }

    private func advertise() async {
        if bootloader == application { return }
        await connector.setAdvertising(mode == .application, for: application)
        await connector.setAdvertising(mode == .bootloader, for: bootloader)
    }

    nonisolated var gattServices: [GATTService] {
        get async { await services }
    }

    private var services: [GATTService] {
        switch mode {
        case .bootloader:
            return [GATTService(NordicDFUService.service, characteristics: [
                GATTCharacteristic(NordicDFUService.controlPoint, properties: [.write, .notify]),
                GATTCharacteristic(NordicDFUService.packet, properties: [.writeWithoutResponse]),
            ])]
        case .application:
            return [
                GATTService(NordicDFUService.service, characteristics: [
                    GATTCharacteristic(NordicDFUService.buttonlessWithoutBonds, properties: [.write, .indicate]),
                ]),
                GATTService(StandardGATT.deviceInformationService, characteristics: [
                    GATTCharacteristic(StandardGATT.firmwareRevision, properties: [.read]),
                ]),
            ]
        }
    }

    func handleConnect(_ session: MemoryPeripheralSession) async {
        self.session = session
    }

    func handleWrite(_ value: [UInt8], to characteristic: CharacteristicID, withResponse: Bool) async throws(ATTError) {
        switch (mode, characteristic) {
        case (.bootloader, NordicDFUService.controlPoint):
            var answer = fake.controlPoint(value)
            if let hostile, hostile.index == answers { answer = hostile.bytes }
            answers += 1
            if fake.resetting, finalAnswerLost { return await reset(into: .application) }
            try? await session?.notify(answer, from: NordicDFUService.controlPoint)
            if fake.resetting { await reset(into: .application) }
        case (.bootloader, NordicDFUService.packet):
            if let prn = fake.packet(value) { try? await session?.notify(prn, from: NordicDFUService.controlPoint) }
        case (.application, NordicDFUService.buttonlessWithoutBonds) where value == [0x01]:
            try? await session?.notify([0x20, 0x01, 0x01], from: NordicDFUService.buttonlessWithoutBonds)
            await reset(into: .bootloader)
        default:
            throw .writeNotPermitted
        }
    }

    func handleRead(_ characteristic: CharacteristicID) async throws(ATTError) -> [UInt8] {
        guard mode == .application, characteristic == StandardGATT.firmwareRevision else { throw .readNotPermitted }
        return Array(revision.utf8)
    }

    func handleDisconnect(_ reason: DisconnectReason, generation: LinkGeneration) async {
        guard session?.generation == generation else { return }
        session = nil
        if mode == .bootloader { fake.linkDropped() }
    }

    /// Drops the link once what was queued went out, and comes back as `next`.
    private func reset(into next: Mode) async {
        resets += 1
        let session = self.session
        self.session = nil
        await session?.flush()
        await session?.disconnect()
        if next == .application, let image = fake.completedImage {
            installed = image
            revision = newRevision
        }
        mode = next
        if next == .application { fake = NordicFakeBootloader(initPacket: fake.expectedInit, image: fake.expectedImage) }
        await advertise()
    }
}
