import BlueZStandIn
import BlueZTransport
import Harness
import Synchronization
import Testing
import Transport

/// Shared steps of the tests that run our BlueZ central against the stand-in over a real bus.
enum BlueZBus {
    static let address = "C2:11:40:55:7A:01"
    static let smp = BlueZTestPeripheral.smp
    static let smpService = BlueZTestPeripheral.smpService

    /// A connector's log lines, for tests that assert on what it said.
    final class Lines: Sendable {
        private let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    static func open(_ bench: BlueZStandInBench, adapter: String? = nil) async throws -> BlueZCentral {
        try await BlueZCentral.open(adapter: adapter, bus: .address(bench.busAddress))
    }

    /// The error `open` fails with, nil when it succeeded.
    static func openError(_ bench: BlueZStandInBench, adapter: String? = nil) async -> BlueZError? {
        do throws(BlueZError) {
            let central = try await BlueZCentral.open(adapter: adapter, bus: .address(bench.busAddress))
            central.close()
            return nil
        } catch {
            return error
        }
    }

    /// Connects through a connector expecting the SMP service (hang-guarded; the deadline is the
    /// connector's own).
    static func connect(_ connector: BlueZConnector, _ peer: String = address,
                        within deadline: Duration = .seconds(20)) async throws -> any Link {
        try await HangGuard.within("connect") {
            try await connector.connect(to: PeerIdentity(peer), deadline: .now + deadline)
        }
    }

    /// Subscribes and sends `count` numbered writes to an echoing `BlueZTestPeripheral`: each comes
    /// back as a notification, in order, stamped with the link's generation.
    static func echoes(_ link: any Link, count: Int) async throws {
        try await link.subscribe(smp)
        let writes = numberedWrites(count, size: 40)
        for value in writes { try await link.writeWithoutResponse(value, to: smp) }
        let events = try await take(count, from: link.events)
        #expect(events.map(\.kind) == writes.map { .notification(smp, $0) })
        #expect(events.allSatisfy { $0.generation == link.parameters.generation })
    }

    /// The link's events until (and with) `.disconnected`, hang-guarded.
    static func eventsUntilDisconnected(_ link: any Link) async throws -> [LinkEvent] {
        try await HangGuard.within("the link's end") {
            var events: [LinkEvent] = []
            for await event in link.events { events.append(event) }
            return events
        }
    }

    /// The next `count` events of a link (its one consumer), hang-guarded.
    static func take(_ count: Int, from events: AsyncStream<LinkEvent>) async throws -> [LinkEvent] {
        try await HangGuard.within("\(count) link events") {
            var taken: [LinkEvent] = []
            for await event in events {
                taken.append(event)
                if taken.count == count { break }
            }
            return taken
        }
    }
}

/// Distinct payloads, so a lost, repeated or reordered write shows.
func numberedWrites(_ count: Int, size: Int) -> [[UInt8]] {
    (0 ..< count).map { (index: Int) -> [UInt8] in
        let head: [UInt8] = [UInt8(truncatingIfNeeded: index >> 8), UInt8(truncatingIfNeeded: index)]
        let body = [UInt8](repeating: UInt8(index % 251), count: max(0, size - 2))
        return head + body
    }
}

/// What a `@Sendable` callback saw, in order.
final class Recorded<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])

    func append(_ item: Element) { items.withLock { $0.append(item) } }

    var all: [Element] { items.withLock { $0 } }
}
