/// A `Link` that wraps another and passes on whatever it does not do itself: a type that watches
/// or counts what crosses a link (the measuring tools' taps and counters) implements only the
/// calls it looks at.
public protocol ForwardingLink: Link {
    var inner: any Link { get }
}

extension ForwardingLink {
    public var parameters: LinkParameters { inner.parameters }
    public var services: [GATTService] { inner.services }
    public var events: AsyncStream<LinkEvent> { inner.events }

    public func writeWithoutResponse(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
        try await inner.writeWithoutResponse(bytes, to: characteristic)
    }

    public func write(_ bytes: [UInt8], to characteristic: CharacteristicID) async throws(LinkError) {
        try await inner.write(bytes, to: characteristic)
    }

    public func read(_ characteristic: CharacteristicID) async throws(LinkError) -> [UInt8] {
        try await inner.read(characteristic)
    }

    public func subscribe(_ characteristic: CharacteristicID) async throws(LinkError) {
        try await inner.subscribe(characteristic)
    }

    public func disconnect() async {
        await inner.disconnect()
    }
}
