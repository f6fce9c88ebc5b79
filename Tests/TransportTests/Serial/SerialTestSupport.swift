import Foundation
import Harness
import SerialTransport
import Transport

/// Shared pieces of the serial tests: bounded waits for bytes and ends, payloads, and a scratch
/// folder for fake `/dev` and `/sys` trees. Every wait is for an event, never a sleep; the bound only
/// turns a hang into a failure.
enum SerialTestSupport {
    /// The bytes of a link's notifications until `count` have come (or the stream ended).
    static func bytes(of link: any Link, count: Int) async throws -> [UInt8] {
        try await HangGuard.within("\(count) bytes from the serial link") {
            var bytes: [UInt8] = []
            for await event in link.events {
                if case .notification(_, let chunk) = event.kind { bytes += chunk }
                if bytes.count >= count { break }
            }
            return bytes
        }
    }

    /// The reason of the `.disconnected` that ends a link's events.
    static func disconnectReason(of link: any Link) async throws -> DisconnectReason? {
        try await HangGuard.within("the serial link's end") {
            var reason: DisconnectReason?
            for await event in link.events {
                if case .disconnected(let why) = event.kind { reason = why }
            }
            return reason
        }
    }

    /// What a pseudo-terminal's clients wrote until `count` bytes have come (or it closed).
    static func bytes(of pty: PseudoTerminal, count: Int) async throws -> [UInt8] {
        try await HangGuard.within("\(count) bytes at the pseudo-terminal") {
            var bytes: [UInt8] = []
            for await chunk in pty.received {
                bytes += chunk
                if bytes.count >= count { break }
            }
            return bytes
        }
    }

    /// `count` bytes that show a lost, repeated or reordered byte: a counter spread over the bytes.
    static func pattern(_ count: Int, seed: Int = 0) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: ($0 &+ seed) &* 7 &+ ($0 >> 8)) }
    }

    /// Far in the future: only a hang reaches it.
    static func soon() -> ContinuousClock.Instant { .now + .seconds(60) }
}

/// A folder of its own under the system's temporary folder, removed by `remove()`; its path has
/// its links resolved, so it compares equal to what realpath(3) returns for files in it.
struct ScratchFolder {
    let path: String

    init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("dfu-serial-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        path = base.resolvingSymlinksInPath().path
    }

    /// Makes the folders of `relative` under the scratch folder; returns its full path.
    @discardableResult
    func folder(_ relative: String) throws -> String {
        let full = "\(path)/\(relative)"
        try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
        return full
    }

    /// Writes `text` (and a newline, as sysfs attributes end) to `relative`, making its folders.
    @discardableResult
    func file(_ relative: String, _ text: String = "") throws -> String {
        let full = "\(path)/\(relative)"
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data((text.isEmpty ? "" : text + "\n").utf8).write(to: URL(fileURLWithPath: full))
        return full
    }

    /// Makes `relative` a symbolic link to `target` (stored as given: relative or absolute),
    /// replacing a link already there.
    @discardableResult
    func link(_ relative: String, to target: String) throws -> String {
        let full = "\(path)/\(relative)"
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        if (try? FileManager.default.destinationOfSymbolicLink(atPath: full)) != nil {
            try FileManager.default.removeItem(atPath: full)
        }
        try FileManager.default.createSymbolicLink(atPath: full, withDestinationPath: target)
        return full
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
