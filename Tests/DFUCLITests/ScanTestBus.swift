import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A private `dbus-daemon` standing in for the system bus, with nobody owning `org.bluez`: what a
/// machine without bluetoothd looks like to dfu. `dfu` reaches it through `DBUS_SYSTEM_BUS_ADDRESS`.
/// Started in a fresh temporary directory and always killed by `withBus` (SIGKILL: a daemon started
/// from the test binary inherits its blocked SIGTERM); only the process started here is signalled.
/// (A trimmed copy of `Tests/TransportTests/DBusTestBus.swift`, which this target cannot import. Its
/// policy is that file's: with `send_destination` alone, dbus-daemon 1.14 never answered `Hello`.)
enum ScanTestBus {
    /// dbus-daemon's path, or nil when it is not installed (`make deps` installs it).
    static let daemonPath: String? = ["/usr/bin/dbus-daemon", "/bin/dbus-daemon", "/usr/local/bin/dbus-daemon"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    struct StartFailed: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `body` with the environment that points dfu at a fresh bus, then stops the bus.
    static func withBus<T>(_ body: ([String: String]) throws -> T) throws -> T {
        guard let daemonPath else { throw StartFailed(description: "dbus-daemon is not installed") }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("dfu-cli-bus-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
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
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        // The daemon prints its address once it listens; end of file means it died first. Either
        // way the read ends (no fixed wait).
        var printed = Data()
        while !printed.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed.append(chunk)
        }
        let address = String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard address.hasPrefix("unix:") else {
            throw StartFailed(description: "dbus-daemon printed no address: '\(address)'")
        }
        return try body(["DBUS_SYSTEM_BUS_ADDRESS": address])
    }
}
