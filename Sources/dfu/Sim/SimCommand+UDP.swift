import DFUCore
import DeviceSim
import ExitCodes
import Transport
import UDPTransport

/// `dfu sim --serve udp:HOST:PORT`.
extension SimCommand {
    func serveUDP(_ options: SimOptions, at address: HostAndPort, console: Console,
                  signals: StopSignals) async throws(DFUError) -> ExitStatus {
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
            + "(device \(device.identity), version \(device.runningVersionText))")
        if await server.serveUntilStopped(options: options, console: console, signals: signals) { return .success }
        let reason = server.failure.map { "\($0)" } ?? "the socket closed"
        throw .internalError("the UDP server stopped by itself: \(reason)")
    }
}
