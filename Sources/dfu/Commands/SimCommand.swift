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
/// Zephyr device. The device options are the `sim:` keys as flags (`SimDeviceFlags`).
struct SimCommand: ParsableCommand {
    static let name = "sim"
    static let abstract = "Serve the virtual device over SMP/UDP for other tools to update."
    static let discussion = """
        The device is the one '--device sim:KEY=VALUE,…' builds (a Zephyr application with MCUmgr on \
        MCUboot, two slots), serving one SMP packet per datagram as Zephyr's UDP transport does. Its \
        slots, upload session and boots last as long as the server, so several clients can talk to it \
        in turn. When ready it prints 'dfu sim: serving SMP over UDP on HOST:PORT (device ID, version \
        V)', with the port the system chose for port 0, then one line per upload, reset, boot and \
        injected fault (--verbose adds every datagram on stderr). smpclient and smpmgr always use port \
        1337: run several servers on 127.0.0.2, 127.0.0.3, …

        Examples:
          dfu sim --serve udp:127.0.0.1:1337 --version 1.0.0
          dfu sim --serve udp:127.0.0.1:0 --fault disconnect@40% --fault reboot@60%
          dfu flash app.signed.bin --device udp:127.0.0.1:1337      # from another shell

        Exit status:
          0    stopped by SIGINT or SIGTERM (for a server, the normal end)
          1    the server stopped by itself (a socket error)
          2    usage error, including an address that cannot be bound
        """

    @Option(valueName: "udp:HOST:PORT",
            help: "Where to serve: udp:127.0.0.1:1337 or udp:[::1]:1337; port 0 picks a free port. (BLE comes with BlueZ serving.)")
    var serve: String

    @Flag(short: "v", help: "Also log every datagram in and out, and requests the device dropped, on stderr.")
    var verbose = false

    @OptionGroup(title: "VIRTUAL DEVICE OPTIONS (the sim:KEY=VALUE keys as flags)")
    var device = SimDeviceFlags()

    func validate() throws(UsageError) {
        _ = try address()
        let options = try device.options()
        // Building the device reads the key and checks the options fit together (the slot holds the
        // running image), so every option problem is a usage error before anything is bound.
        do throws(SimOptionsError) {
            _ = try options.makeDevice(framing: .datagram)
        } catch {
            throw device.usageError(error)
        }
    }

    func run(_ console: Console) async throws(DFUError) -> ExitStatus {
        let console = console.verbose(verbose)
        let address: HostAndPort
        let options: SimOptions
        do throws(UsageError) {
            address = try self.address()
            options = try device.options()
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
            case .options(let optionsError): throw .usage(device.usageError(optionsError).message)
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
}
