extension InfoRead {
    /// Nordic Secure DFU: a bootloader is asked Select for both objects, and on a serial port what
    /// it tells there besides (`NordicSerialDetails`); an application is named by its buttonless
    /// variant (entering the bootloader would change the device).
    func nordic() async throws(DFUError) -> DeviceInfo {
        try await with(NordicUpdateProtocol()) { connection async throws(DFUError) in
            let link = connection.link
            let facts = await standardFacts(link, DeviceFacts())
            var nordic: NordicDeviceInfo
            if NordicGATT.isBootloader(link.services) {
                nordic = NordicDeviceInfo(role: .bootloader)
                nordic.commandObject = try await select(.command, on: connection.client)
                nordic.dataObject = try await select(.data, on: connection.client)
                if let serial = link as? NordicSerialLink {
                    let context = context
                    nordic.serial = await NordicSerialDetails.read(on: serial, timeout: context.deadlines.request) {
                        context.log("serial: \($0)")
                    }
                }
            } else {
                let bonds = NordicGATT.buttonless(in: link.services)?.id == NordicDFUService.buttonlessWithBonds
                nordic = NordicDeviceInfo(role: .buttonlessApplication(bonds: bonds))
            }
            return DeviceInfo(connection: summary(link, window: 1), updateProtocol: .nordic, facts: facts, slots: [],
                              details: nordic)
        }
    }

    private func select(_ type: NordicObjectType, on session: NordicSession) async throws(DFUError) -> NordicObjectInfo {
        let device = context.device
        switch await session.request(.select(type), timeout: context.deadlines.request) {
        case .answered(let response):
            switch response.outcome {
            case .success(.objectInfo(let info)): return info
            case .success: throw .deviceRejected("\(device) answered Select \(type) without its object info")
            case .failure(let error): throw .deviceRejected("\(device) refused Select \(type): \(error)")
            }
        case .garbled(let what):
            throw .deviceRejected("\(device) answered Select \(type) with \(what)")
        case .timedOut:
            throw .deviceUnreachable("\(device) did not answer Select \(type) in time. Check that the bootloader is in DFU mode, then retry.")
        case .linkLost:
            throw .deviceUnreachable("the link to \(device) closed before it answered Select \(type).")
        case .writeFailed(let error):
            throw DFUError.connectFailed(device, error)
        }
    }
}
