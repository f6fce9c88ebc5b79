import Foundation

/// A private `dbus-daemon` for one test: started on a unix socket in a fresh temp dir with a config
/// we write (everyone may own any name, send anything and pass unix fds), stopped by `withDaemon`
/// on every path, including failures. Only the process started here is ever signalled.
public final class PrivateDBusDaemon: Sendable {
    /// dbus-daemon's path, or nil when it is not installed (`make deps` installs it).
    public static let daemonPath: String? = ["/usr/bin/dbus-daemon", "/bin/dbus-daemon", "/usr/local/bin/dbus-daemon"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    public struct StartFailed: Error, CustomStringConvertible {
        public var description: String
    }

    /// The bus address (`unix:path=…`), for `DBusConnection.connect(to: .address(…))` or a child's
    /// `DBUS_SYSTEM_BUS_ADDRESS`.
    public let address: String
    private let process: Process
    private let directory: URL

    private init(address: String, process: Process, directory: URL) {
        self.address = address
        self.process = process
        self.directory = directory
    }

    /// Runs `body` with a fresh daemon and always stops it afterwards. `denyingSendsTo` names
    /// destinations no client may call (a system bus whose policy keeps the user from bluetoothd).
    public static func withDaemon<T: Sendable>(denyingSendsTo denied: [String] = [],
                                               _ body: (PrivateDBusDaemon) async throws -> T) async throws -> T {
        let daemon = try start(denyingSendsTo: denied)
        do {
            let result = try await body(daemon)
            daemon.stop()
            return result
        } catch {
            daemon.stop()
            throw error
        }
    }

    /// Starts a daemon; the caller must `stop()` it.
    public static func start(denyingSendsTo denied: [String] = []) throws -> PrivateDBusDaemon {
        guard let daemonPath else { throw StartFailed(description: "dbus-daemon is not installed") }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("dfu-dbus-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("bus.conf")
        // Unix fds (AcquireWrite/AcquireNotify) pass by default on a unix transport.
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
        \(denied.map { "    <deny send_destination=\"\($0)\"/>" }.joined(separator: "\n"))
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
        // The daemon prints its address once it listens; EOF means it died first. Either way this
        // read ends (no fixed wait).
        var printed = Data()
        while !printed.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed.append(chunk)
        }
        let address = String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let daemon = PrivateDBusDaemon(address: address, process: process, directory: directory)
        guard address.hasPrefix("unix:") else {
            daemon.stop()
            throw StartFailed(description: "dbus-daemon printed no address: '\(address)'")
        }
        return daemon
    }

    /// Kills the daemon at once (SIGKILL), as a crash would; waits (at most 5 s) for it to be gone,
    /// reaping it ourselves (`ChildExit`: Foundation's own wait can miss the exit and spin).
    public func kill() {
        // Reaped already (here or by Foundation): its pid may belong to another process by now.
        guard ChildExit.wait(process, timeout: 0) == nil else { return }
        _ = Foundation.kill(process.processIdentifier, SIGKILL)
        _ = ChildExit.wait(process, timeout: 5)
    }

    /// SIGKILL, not SIGTERM: the daemon inherits the test process's blocked signal mask (SIGTERM
    /// included), and a private test bus has nothing to flush.
    public func stop() {
        kill()
        try? FileManager.default.removeItem(at: directory)
    }
}
