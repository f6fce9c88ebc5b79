import Transport

/// The GATT layouts a Nordic Secure DFU update meets (nordic-secure-dfu.md §1): the bootloader with
/// its Control Point and Packet characteristics, or an application that offers buttonless entry.
/// The UUIDs are `NordicDFUService`'s.
enum NordicGATT: GATTLayout {
    /// The first device: a bootloader, or an application with buttonless DFU.
    case bootloaderOrButtonless
    /// After buttonless entry: the bootloader itself.
    case bootloader
    /// After the update: the new application, whatever it offers (its version comes from Device
    /// Information).
    case application

    func problem(in services: [GATTService]) -> String? {
        switch self {
        case .application:
            return nil
        case .bootloader:
            return Self.bootloaderProblem(in: services)
        case .bootloaderOrButtonless:
            guard let bootloaderProblem = Self.bootloaderProblem(in: services) else { return nil }
            if Self.buttonless(in: services) != nil { return nil }
            return bootloaderProblem
        }
    }

    var missingHint: String {
        "Check that the device runs the nRF5 SDK secure bootloader, or an application with the buttonless DFU service."
    }

    func missingAfterReboot(_ problem: String) -> String {
        "came back without the Nordic DFU service: \(problem)"
    }

    /// The buttonless characteristic an application offers, if any (with bonds first: it needs the
    /// bond kept, which a central that found it must not lose).
    static func buttonless(in services: [GATTService]) -> GATTCharacteristic? {
        StandardGATT.find(NordicDFUService.buttonlessWithBonds, in: NordicDFUService.service, of: services)
            ?? StandardGATT.find(NordicDFUService.buttonlessWithoutBonds, in: NordicDFUService.service, of: services)
    }

    /// Whether `services` are a bootloader's.
    static func isBootloader(_ services: [GATTService]) -> Bool { bootloaderProblem(in: services) == nil }

    private static func bootloaderProblem(in services: [GATTService]) -> String? {
        guard services.contains(where: { $0.id == NordicDFUService.service }) else {
            return "it has no Nordic Secure DFU service (\(NordicDFUService.service))"
        }
        guard let controlPoint = StandardGATT.find(NordicDFUService.controlPoint, in: NordicDFUService.service, of: services) else {
            return "its DFU service has neither the Control Point (\(NordicDFUService.controlPoint)) nor a buttonless characteristic"
        }
        guard let packet = StandardGATT.find(NordicDFUService.packet, in: NordicDFUService.service, of: services) else {
            return "its DFU service lacks the Packet characteristic (\(NordicDFUService.packet))"
        }
        let missing = NordicDFUService.controlPointProperties.subtracting(controlPoint.properties)
        guard missing.isEmpty else { return "its DFU Control Point does not allow \(missing)" }
        guard NordicDFUService.packetProperties.isSubset(of: packet.properties) else {
            return "its DFU Packet characteristic does not allow write without response"
        }
        return nil
    }
}
