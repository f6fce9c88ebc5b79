extension InfoRead {
    /// SMP: the MCUmgr parameters (as the connect stage negotiates them), the image list, slot size,
    /// bootloader mode.
    func smp() async throws(DFUError) -> DeviceInfo {
        try await with(SMPUpdateProtocol()) { connection async throws(DFUError) in
            let reader = SMPDeviceStateReader(connection: connection, device: context.device,
                                              requestTimeout: context.deadlines.request, log: context.log, warn: context.warn)
            let negotiated = try await reader.negotiate()
            let snapshot = try await reader.readImageState(negotiated)
            let facts = await standardFacts(connection.link, snapshot.facts)
            return DeviceInfo(connection: summary(connection.link, window: negotiated.window), updateProtocol: .smp,
                              facts: facts, slots: snapshot.images.images)
        }
    }
}
