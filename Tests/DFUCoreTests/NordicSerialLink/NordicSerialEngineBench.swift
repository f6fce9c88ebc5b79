@testable import DFUCore
import DeviceSim
import Testing
import Transport

/// The engine updating the virtual nRF52's serial bootloader over a serial line in memory
/// (`SerialPipe`): the client is `NordicSerialConnector`, the device end `NordicSerialServer`, as
/// `dfu flash PKG.zip --device serial:PATH` against `dfu sim --serve serial:PATH --protocol
/// nordic`, without a pty.
struct NordicSerialEngineBench {
    let pipe: SerialPipe
    let server: NordicSerialServer
    let connector: NordicSerialConnector
    let serverEvents: SerialEngineBench.Log<NordicSerialServerEvent>
    let notes: SerialEngineBench.Log<NordicSerialLink.Note>

    static let peer = PeerIdentity("serial:/dev/ttyTEST")

    /// `simOptions`: `sim:` keys besides `protocol=nordic`. A line of 1,000,000 baud unless
    /// `serving` says otherwise, in real time (a reset over a line without a connection is seen
    /// only by the device's silence).
    static func make(_ simOptions: String = "", serving: SerialServeOptions = .fastLine) async throws -> NordicSerialEngineBench {
        let pipe = SerialPipe(characteristic: NordicSerialLink.byteFace.characteristic)
        var configuration = try SimOptions.parse("sim:protocol=nordic" + (simOptions.isEmpty ? "" : "," + simOptions))
            .nordicDeviceConfiguration()
        configuration.bootTime = .milliseconds(200)
        let clock = LinkClock.realTime()
        let serverEvents = SerialEngineBench.Log<NordicSerialServerEvent>()
        let server = NordicSerialServer(model: NordicVirtualDevice(configuration: configuration, inBootloaderAt: clock.now),
                                        port: pipe.openDeviceEnd(), serving: serving, clock: clock,
                                        reopen: { () async throws(SimSerialPortError) -> any SimSerialPort in pipe.openDeviceEnd() },
                                        observer: { serverEvents.add($0) })
        await server.start()
        let notes = SerialEngineBench.Log<NordicSerialLink.Note>()
        let connector = NordicSerialConnector(wrapping: pipe.connector, byteCharacteristic: NordicSerialLink.byteFace.characteristic,
                                              pingTimeout: .milliseconds(100), observer: { notes.add($0) })
        return NordicSerialEngineBench(pipe: pipe, server: server, connector: connector, serverEvents: serverEvents, notes: notes)
    }

    /// `through`: a byte connector of the test's between the engine's Nordic serial connector and
    /// the line (the line's own by default).
    func flash(_ package: [UInt8]? = nil, through bytes: (any Connector)? = nil,
               configure: (inout UpdateOptions) -> Void = { _ in }) async throws -> EngineOutcome {
        var options = UpdateOptions()
        options.deadlines = EngineTestBench.fastDeadlines
        configure(&options)
        let engine = UpdateEngine(image: try package ?? Samples.bytes("nordic/app-signed-3.zip"), imageName: "package.zip",
                                  key: try NordicSamples.key(), options: options,
                                  target: .init(connector: bytes.map(nordicConnector) ?? connector, peer: Self.peer, speaks: .nordic),
                                  hostPower: .mains)
        let run = engine.start()
        var events: [UpdateEvent] = []
        for await event in run.events { events.append(event) }
        return EngineOutcome(events: events, result: await run.result.value)
    }

    /// The Nordic serial connector as `make` builds it, over `bytes`.
    private func nordicConnector(over bytes: any Connector) -> NordicSerialConnector {
        let notes = self.notes
        return NordicSerialConnector(wrapping: bytes, byteCharacteristic: NordicSerialLink.byteFace.characteristic,
                                     pingTimeout: .milliseconds(100), observer: { notes.add($0) })
    }

    /// The device once it has finished starting (waits up to 2 s).
    func settled() async throws -> NordicVirtualDevice {
        var device = await server.snapshot
        for _ in 0 ..< 40 {
            guard case .booting = device.mode else { return device }
            try await Task.sleep(for: .milliseconds(50))
            device = await server.snapshot
        }
        return device
    }

    var device: NordicVirtualDevice {
        get async { await server.snapshot }
    }

    /// The requests the bootloader received, in order.
    var requests: [NordicSerialRequest] {
        serverEvents.all.compactMap { if case .received(let request) = $0 { request } else { nil } }
    }

    /// The answers it sent, unframed.
    var answers: [[UInt8]] {
        serverEvents.all.compactMap { if case .replied(let bytes) = $0 { bytes } else { nil } }
    }
}
