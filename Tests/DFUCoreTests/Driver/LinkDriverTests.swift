import Testing
import Transport
@testable import DFUCore

/// `LinkDriver` as a session uses it: owned by an actor, events hopping back onto it.
@Suite(.timeLimit(.minutes(1))) struct LinkDriverTests {
    /// The session's side, reduced to recording what the driver let through.
    actor Owner {
        private var driver: LinkDriver<[UInt8]>
        /// What `accept` let through, in order.
        nonisolated let accepted: AsyncStream<LinkEvent.Kind>
        private let acceptedSink: AsyncStream<LinkEvent.Kind>.Continuation
        nonisolated let linkLosses: AsyncStream<DisconnectReason>

        init() {
            let driver = LinkDriver<[UInt8]>(clock: InstantClock(LinkClock.manual()))
            self.driver = driver
            linkLosses = driver.linkLosses
            (accepted, acceptedSink) = AsyncStream.makeStream(of: LinkEvent.Kind.self)
        }

        func serve(_ link: any Link) {
            driver.serve(link, events: { [weak self] event in await self?.receive(event) },
                         write: { (bytes: [UInt8], link: any Link) async throws(LinkError) in
                             try await link.writeWithoutResponse(bytes, to: DriverTestLink.characteristic)
                         })
        }

        func send(_ bytes: [UInt8]) { driver.send(bytes) }
        func dropCurrentLink() -> Bool { driver.dropCurrentLink() }
        func close() { driver.close() }
        var canServe: Bool { driver.canServe }
        var generation: LinkGeneration? { driver.generation }

        private func receive(_ event: LinkEvent) {
            guard let kind = driver.accept(event) else { return }
            acceptedSink.yield(kind)
            if case .disconnected(let reason) = kind { driver.reportLoss(reason) }
        }
    }

    @Test func writesGoOutInTheOrderTheyWereQueued() async {
        let owner = Owner()
        let link = DriverTestLink(generation: 1)
        await owner.serve(link)
        for byte: UInt8 in 1...5 { await owner.send([byte]) }
        var written: [[UInt8]] = []
        for await bytes in link.written {
            written.append(bytes)
            if written.count == 5 { break }
        }
        #expect(written == [[1], [2], [3], [4], [5]])
    }

    @Test func eventsOfAnEarlierLinkAreDropped() async {
        let owner = Owner()
        let link = DriverTestLink(generation: 2)
        await owner.serve(link)
        link.emit(.notification(DriverTestLink.characteristic, [0xAA]), generation: 1)
        link.emit(.disconnected(.connectionTimeout), generation: 1)
        link.emit(.notification(DriverTestLink.characteristic, [0xBB]))
        var iterator = owner.accepted.makeAsyncIterator()
        #expect(await iterator.next() == .notification(DriverTestLink.characteristic, [0xBB]))
        #expect(await owner.generation == LinkGeneration(2))
    }

    @Test func aLossEndsServingAndIsReported() async {
        let owner = Owner()
        let link = DriverTestLink(generation: 1)
        await owner.serve(link)
        link.emit(.disconnected(.connectionTimeout))
        var losses = owner.linkLosses.makeAsyncIterator()
        #expect(await losses.next() == .connectionTimeout)
        #expect(await owner.canServe)
        #expect(await owner.generation == nil)
    }

    @Test func aWriteFailingForAnotherReasonThanTheLinkGoingDownDisconnectsTheLink() async {
        let owner = Owner()
        let link = DriverTestLink(generation: 1)
        link.failWrites(with: .rejected(DriverTestLink.characteristic, ATTError(code: 0x0E)))
        await owner.serve(link)
        await owner.send([1])
        var losses = owner.linkLosses.makeAsyncIterator()
        #expect(await losses.next() == .localHostTerminated)
    }

    @Test func anAttachDropsTheCurrentLinkWithoutAReport() async {
        let owner = Owner()
        let old = DriverTestLink(generation: 1)
        await owner.serve(old)
        #expect(await owner.dropCurrentLink())
        #expect(await owner.dropCurrentLink() == false)
        #expect(await owner.canServe)
        let new = DriverTestLink(generation: 2)
        await owner.serve(new)
        old.emit(.disconnected(.connectionTimeout)) // late: the old link is no longer served
        new.emit(.notification(DriverTestLink.characteristic, [0xCC]))
        var iterator = owner.accepted.makeAsyncIterator()
        #expect(await iterator.next() == .notification(DriverTestLink.characteristic, [0xCC]))
    }

    @Test func closingFinishesTheLossStreamAndServesNoMore() async {
        let owner = Owner()
        await owner.serve(DriverTestLink(generation: 1))
        await owner.close()
        #expect(await owner.canServe == false)
        var losses = owner.linkLosses.makeAsyncIterator()
        #expect(await losses.next() == nil)
    }
}
