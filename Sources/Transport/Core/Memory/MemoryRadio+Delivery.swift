/// The radio's two hand-overs to the hosts at its ends, each a task of its own that keeps air
/// order: the central's app gets its events at the instant it may see them, the device its
/// callbacks one at a time.
extension MemoryRadio {
    /// Yields each central event once its instant (notification latency included) has come, then
    /// finishes `userEvents` when the radio finished `hostEvents` (after the disconnection).
    static func deliver(_ hostEvents: AsyncStream<(MonotonicInstant, LinkEvent)>,
                        to userEvents: AsyncStream<LinkEvent>.Continuation, clock: LinkClock) async {
        for await (due, event) in hostEvents {
            _ = await clock.pause(until: due)
            userEvents.yield(event)
        }
        userEvents.finish()
    }

    /// Hands what reached the device to it, one item at a time in air order, ending with the
    /// disconnect; returns once `handleDisconnect` has. Responses to requests handed over after the
    /// drop go nowhere.
    static func serve(_ peripheral: any MemoryPeripheral, inbox: AsyncStream<PeripheralInbound>,
                      radio: MemoryRadio) async {
        for await item in inbox {
            switch item {
            case .write(let characteristic, let value, let request):
                do {
                    try await peripheral.handleWrite(value, to: characteristic, withResponse: request != nil)
                    if let request { await radio.respond(request, .success([])) }
                } catch {
                    // A Write Command's error has nowhere to go, as on air.
                    if let request { await radio.respond(request, .failure(error)) }
                }
            case .read(let id, let characteristic):
                do {
                    let value = try await peripheral.handleRead(characteristic)
                    await radio.respond(id, .success(Array(value.prefix(512))))
                } catch {
                    await radio.respond(id, .failure(error))
                }
            case .subscribe(let id, let characteristic):
                await peripheral.handleSubscription(characteristic)
                await radio.respond(id, .success([]))
            case .disconnected(let reason):
                await peripheral.handleDisconnect(reason, generation: radio.parameters.generation)
            }
        }
    }
}
