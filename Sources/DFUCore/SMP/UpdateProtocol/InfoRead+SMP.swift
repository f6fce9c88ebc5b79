extension InfoRead {
    /// SMP: the MCUmgr parameters (as the connect stage negotiates them), the image list, slot size,
    /// bootloader mode, and for a device of several images its board and the core of each.
    func smp() async throws(DFUError) -> DeviceInfo {
        try await with(SMPUpdateProtocol()) { connection async throws(DFUError) in
            let reader = SMPDeviceStateReader(connection: connection, context: context)
            let negotiated = try await reader.negotiate()
            let snapshot = context.options.serialRecovery == .inRecovery
                ? try await reader.readRecoveryState(negotiated)
                : try await reader.readImageState(negotiated)
            let facts = await standardFacts(connection.link, snapshot.facts)
            var info = DeviceInfo(connection: summary(connection.link, window: negotiated.window), updateProtocol: .smp,
                                  facts: facts, slots: snapshot.images.images)
            // Only a device of several images needs its cores named: one request more, then.
            let indexes = Set(snapshot.images.images.map { $0.image ?? 0 }).union(snapshot.slotInfoIndexes ?? [])
            if indexes.count > 1, let board = try await reader.board() {
                info.board = board
                info.imageCores = (ImageCores.named(byBoard: board) ?? [:]).filter { indexes.contains($0.key) }
            }
            return info
        }
    }
}
