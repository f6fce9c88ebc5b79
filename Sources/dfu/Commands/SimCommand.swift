#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import DFUCore
import DeviceSim
import Transport

/// `dfu sim --serve udp:HOST:PORT [device options]`: the virtual device (`--device sim`) as a
/// long-running SMP-over-UDP server, so smpclient, smpmgr or another `dfu` can update it like a
/// Zephyr device. The device options are the `sim:` keys as flags and go through `SimOptions.set`,
/// so both spellings are validated by the same code.
struct SimCommand: ParsableCommand {
    static let name = "sim"
    static let abstract = "Serve the virtual device over SMP/UDP until stopped, for other tools to update."
    static let discussion = """
        The device is the one '--device sim:KEY=VALUE,…' builds (a Zephyr application with MCUmgr on \
        MCUboot, two slots), serving one SMP packet per datagram as Zephyr's UDP transport does. Its \
        slots, upload session and boots last as long as the server, so several clients can talk to it \
        in turn. When ready it prints 'dfu sim: serving SMP over UDP on HOST:PORT (device ID, version \
        V)', with the port the system chose for port 0, then one line per upload, reset, boot and \
        injected fault (--verbose adds every datagram on stderr). smpclient and smpmgr always use port \
        1337: run several servers on 127.0.0.2, 127.0.0.3, … SIGINT or SIGTERM stops the server and \
        dfu exits 0. Exit status 2 for a usage error, including an address that cannot be bound.
        """

    @Option(valueName: "udp:HOST:PORT",
            help: "Where to serve: udp:127.0.0.1:1337 or udp:[::1]:1337; port 0 picks a free port. (BLE comes with BlueZ serving.)")
    var serve: String

    @Option(name: "protocol", valueName: "smp", help: "Update protocol (sim:protocol=). Default smp, the only one so far.")
    var simProtocol: String?

    @Option(valueName: "M.m.r[+b]", help: "Version the device runs at start (sim:version=). Default 1.0.0.")
    var version: String?

    @Option(valueName: "PERCENT", help: "Battery level, 0-100 (sim:battery=). Default 80.")
    var battery: String?

    @Option(valueName: "PUB.pem", help: "Bootloader public key (sim:key=). Default the sample test key.")
    var key: String?

    @Option(valueName: "ID", help: "Device identity (sim:id=). Default derived from the other options.")
    var id: String?

    @Option(valueName: "BYTES", help: "ATT MTU 23-517 (sim:mtu=). Default 498. BLE only: over UDP it only changes the derived identity.")
    var mtu: String?

    @Option(valueName: "1M|2M", help: "Radio PHY (sim:phy=). Default 2M. BLE only, as --mtu.")
    var phy: String?

    @Option(valueName: "MS", help: "Connection interval, 7.5-4000 ms in 1.25 steps (sim:interval=). Default 7.5. BLE only, as --mtu.")
    var interval: String?

    @Option(valueName: "BYTES", help: "MCUmgr buffer size, 64-65535 (sim:buf_size=). Default 2475. A longer datagram is cut to it and answered rc 9.")
    var bufSize: String?

    @Option(valueName: "N", help: "MCUmgr buffer count, 2-64 (sim:buf_count=). Default 4.")
    var bufCount: String?

    @Option(valueName: "SIZE", help: "Slot size: bytes, 0x hex or K/M, whole 4 KiB pages, 64K-16M (sim:slot_size=). Default 0x60000.")
    var slotSize: String?

    @Option(valueName: "on|off", help: "Packets may span BLE writes (sim:reassembly=). Default on. BLE only: UDP is one packet per datagram.")
    var reassembly: String?

    @Option(valueName: "N", help: "Seed for @random fault points (sim:seed=). Default 0.")
    var seed: String?

    @Option(valueName: "FAULT", help: "Faults to inject (sim:fault=): disconnect@40%, reboot@60%, stall@N, corrupt@N, duplicate@N, delay@N:1500ms; N a share, a byte count or 'random'. Join several with '+': a repeated --fault replaces the one before.")
    var fault: String?

    @Flag(short: "v", help: "Also log every datagram in and out, and requests the device dropped, on stderr.")
    var verbose = false

    /// Each flag and the `sim:` key it sets, in `SimOptions.knownKeys` order.
    private var deviceFlags: [(flag: String, key: String, value: String?)] {
        [
            ("protocol", "protocol", simProtocol), ("version", "version", version), ("battery", "battery", battery),
            ("key", "key", key), ("id", "id", id), ("mtu", "mtu", mtu), ("phy", "phy", phy),
            ("interval", "interval", interval), ("buf-size", "buf_size", bufSize), ("buf-count", "buf_count", bufCount),
            ("slot-size", "slot_size", slotSize), ("reassembly", "reassembly", reassembly), ("seed", "seed", seed),
            ("fault", "fault", fault),
        ]
    }

    func validate() throws(UsageError) {
        _ = try address()
        let options = try options()
        // Building the device reads the key and checks the options fit together (the slot holds the
        // running image), so every option problem is a usage error before anything is bound.
        do throws(SimOptionsError) {
            _ = try options.makeDevice(framing: .datagram)
        } catch {
            throw usageError(error)
        }
    }

    func run(_ console: Console) async throws(DFUError) -> ExitStatus {
        let console = console.verbose(verbose)
        let address: HostAndPort
        let options: SimOptions
        do throws(UsageError) {
            address = try self.address()
            options = try self.options()
        } catch {
            throw .usage(error.message)
        }
        // From here a signal stops the server instead of ending dfu with 130: for a server, being
        // told to stop is how a run ends well.
        let stopSignals = StopSignals.install()
        let server: VirtualDeviceUDPServer
        do throws(UDPServeError) {
            server = try await VirtualDeviceUDPServer.serve(options, at: address.description) { event in
                if event.isLifecycle {
                    console.out("dfu sim: \(event)")
                } else {
                    console.log("sim: \(event)")
                }
            }
        } catch {
            switch error {
            case .options(let optionsError): throw .usage(usageError(optionsError).message)
            case .socket(let socketError): throw .usage("cannot serve on \(address): \(socketError)")
            }
        }
        let device = await server.snapshot
        console.out("dfu sim: serving SMP over UDP on \(HostAndPort(server.localAddress)) "
            + "(device \(device.identity), version \(device.firmwareRevision))")
        console.log("sim: device options \(options.canonicalText)")

        let ending = await Self.firstEnding(of: server, signals: stopSignals)
        let snapshot = await server.snapshot
        switch ending {
        case .signal(let name):
            console.out("dfu sim: stopped by \(name) after \(snapshot.boots.count) reset(s), "
                + "running \(snapshot.firmwareRevision)")
            return .success
        case .serverEnded:
            let reason = server.failure.map { "\($0)" } ?? "the socket closed"
            throw .internalError("the UDP server stopped by itself: \(reason)")
        }
    }

    private enum Ending: Sendable {
        case signal(String)
        case serverEnded
    }

    /// Whichever comes first: a stop signal, or the server ending on its own (a socket error).
    /// Either way the server is stopped when this returns, which also ends the other child task
    /// (the group waits for both).
    private static func firstEnding(of server: VirtualDeviceUDPServer, signals: StopSignals) async -> Ending {
        await withTaskGroup(of: Ending?.self) { group in
            group.addTask {
                await server.waitUntilStopped()
                return .serverEnded
            }
            group.addTask {
                for await number in signals.received {
                    await server.stop()
                    return .signal(number == SIGINT ? "SIGINT" : number == SIGTERM ? "SIGTERM" : "signal \(number)")
                }
                return nil
            }
            // The first answer ends the wait for signals too (cancelling the stream's iteration).
            let first = await group.next() ?? nil
            group.cancelAll()
            var ending = first ?? .serverEnded
            // A signal's answer wins over the server's, which may come first because of it.
            for await case let result? in group {
                if case .signal = result { ending = result }
            }
            return ending
        }
    }

    /// `--serve udp:HOST:PORT`, parsed but not resolved.
    private func address() throws(UsageError) -> HostAndPort {
        guard serve.lowercased().hasPrefix("udp:") else {
            let kind = serve.firstIndex(of: ":").map { "'\(serve[..<$0])'" } ?? "'\(serve)'"
            throw UsageError("--serve \(kind) is not served yet: give udp:HOST:PORT (e.g. udp:127.0.0.1:1337). "
                + "Serving the device as a BLE peripheral through BlueZ comes with issue 4")
        }
        do throws(UDPAddressError) {
            return try HostAndPort(parsing: String(serve.dropFirst(4)))
        } catch {
            throw UsageError("invalid --serve '\(serve)': \(error)")
        }
    }

    /// The device options, each flag given through `SimOptions.set` exactly as a `sim:` key.
    private func options() throws(UsageError) -> SimOptions {
        var options = SimOptions()
        for (_, key, value) in deviceFlags {
            guard let value else { continue }
            do throws(SimOptionsError) {
                try options.set(key, to: value)
            } catch {
                throw usageError(error)
            }
        }
        return options
    }

    /// A `SimOptionsError` in the words of flags rather than `sim:` keys.
    private func usageError(_ error: SimOptionsError) -> UsageError {
        func flag(_ key: String) -> String {
            "--" + (deviceFlags.first { $0.key == key }?.flag ?? key.replacingOccurrences(of: "_", with: "-"))
        }
        switch error {
        case .badValue(let key, let value, let expected):
            return UsageError("invalid value '\(value)' for \(flag(key)): expected \(expected)")
        case .keyUnusable(let path, let reason):
            return UsageError("--key '\(path)' cannot be used: \(reason)")
        case .inconsistent(let reason):
            return UsageError("the device options do not fit together: \(reason)")
        case .notASimDevice, .missingEquals, .unknownKey, .duplicateKey:
            return UsageError(error.description)
        }
    }
}
