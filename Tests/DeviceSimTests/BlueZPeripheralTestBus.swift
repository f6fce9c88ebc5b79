import Foundation
import Testing
import Transport

/// A private `dbus-daemon` for one test (a copy of TransportTests' `DBusTestBus` launcher: test
/// targets cannot share files). Started on a unix socket in a fresh temp dir with a config that
/// lets everyone own and send anything, stopped by `withBus` on every path. Only the process
/// started here is ever signalled.
final class BlueZPeripheralTestBus: Sendable {
    static let daemonPath: String? = ["/usr/bin/dbus-daemon", "/bin/dbus-daemon", "/usr/local/bin/dbus-daemon"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    struct StartFailed: Error, CustomStringConvertible {
        var description: String
    }

    let address: String
    private let process: Process
    private let directory: URL

    private init(address: String, process: Process, directory: URL) {
        self.address = address
        self.process = process
        self.directory = directory
    }

    /// Runs `body` with a fresh bus and always stops it afterwards.
    static func withBus<T: Sendable>(_ body: (BlueZPeripheralTestBus) async throws -> T) async throws -> T {
        let bus = try start()
        do {
            let result = try await body(bus)
            bus.stop()
            return result
        } catch {
            bus.stop()
            throw error
        }
    }

    private static func start() throws -> BlueZPeripheralTestBus {
        guard let daemonPath else { throw StartFailed(description: "dbus-daemon is not installed") }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("dfu-peripheral-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("bus.conf")
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(directory.path)/bus</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """.write(to: config, atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: daemonPath)
        process.arguments = ["--config-file=\(config.path)", "--print-address", "--nofork", "--nopidfile"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        // The daemon prints its address once it listens; EOF means it died first.
        var printed = Data()
        while !printed.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed.append(chunk)
        }
        let address = String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let bus = BlueZPeripheralTestBus(address: address, process: process, directory: directory)
        guard address.hasPrefix("unix:") else {
            bus.stop()
            throw StartFailed(description: "dbus-daemon printed no address: '\(address)'")
        }
        return bus
    }

    /// SIGKILL, not SIGTERM: the daemon inherits the test process's blocked signal mask (SIGTERM
    /// included), and a private test bus has nothing to flush.
    private func stop() {
        if process.isRunning { _ = kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    var busAddress: DBusBusAddress { .address(address) }
}

/// Bounded waits: the bound only turns a hang into a failure; nothing is slept for. Long because
/// the suite shares a 2-thread cooperative pool with tests that block it for seconds.
enum PeripheralWait {
    struct TimedOut: Error, CustomStringConvertible {
        var description: String { "gave up waiting (hang?)" }
    }

    static func within<T: Sendable>(_ limit: Duration = .seconds(60),
                                    _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw TimedOut() }
            return value
        }
    }
}

let peripheralDBusAvailable = BlueZPeripheralTestBus.daemonPath != nil
let peripheralDBusSkipReason: Comment = "dbus-daemon is not installed (make deps installs it); BlueZ peripheral tests skipped"
