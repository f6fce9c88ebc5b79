@testable import DFUCore
import DeviceSim
import Testing
import Transport

/// The engine updating the virtual device over a serial line in memory (`SerialPipe`): the client
/// frames SMP (`SMPSerialConnector`), the device end is `VirtualDeviceSerialServer`, as
/// `dfu flash --device serial:PATH` against `dfu sim --serve serial:PATH` but without a pty.
struct SerialEngineBench {
    let pipe: SerialPipe
    let server: VirtualDeviceSerialServer
    let connector: SMPSerialConnector
    let notes: NoteLog
    let serverEvents: Log<SerialServerEvent>

    typealias NoteLog = Log<SMPSerialLink.Note>

    final class Log<Entry: Sendable>: Sendable {
        private let entries = Locked<[Entry]>([])
        func add(_ entry: Entry) { entries.withLock { $0.append(entry) } }
        var all: [Entry] { entries.withLock { $0 } }
    }

    /// A line of 1,000,000 baud unless `serving` says otherwise: real time (the engine knows a reset
    /// over a line without a connection only by the device's silence, which an unpaced clock would
    /// make too short to see), and fast enough that an update takes a second or two.
    static func make(_ simOptions: String = "sim", serving: SerialServeOptions = .fastLine) async throws -> SerialEngineBench {
        let pipe = SerialPipe(characteristic: SMPGATT.characteristic)
        // Flash takes no time: the line and the protocol are under test, not the swap.
        var configuration = try SimOptions.parse(simOptions).deviceConfiguration(framing: .datagram)
        configuration.flashTiming = .instant
        configuration.startupTime = .milliseconds(300)
        let device = try VirtualDevice(configuration: configuration)
        let serverEvents = Log<SerialServerEvent>()
        let server = VirtualDeviceSerialServer(device: device, port: pipe.openDeviceEnd(), serving: serving, clock: .realTime(),
                                               reopen: { () async throws(SimSerialPortError) -> any SimSerialPort in pipe.openDeviceEnd() },
                                               observer: { serverEvents.add($0) })
        await server.start()
        let notes = NoteLog()
        let connector = SMPSerialConnector(wrapping: pipe.connector, byteCharacteristic: SMPGATT.characteristic,
                                           framing: serving.framing, observer: { notes.add($0) })
        return SerialEngineBench(pipe: pipe, server: server, connector: connector, notes: notes, serverEvents: serverEvents)
    }

    func flash(configure: (inout UpdateOptions) -> Void = { _ in }) async throws -> EngineOutcome {
        var options = UpdateOptions()
        options.deadlines = EngineTestBench.fastDeadlines
        options.deadlines.reboot = .seconds(10)
        configure(&options)
        let engine = UpdateEngine(image: try Samples.image(EngineTestBench.image), imageName: "test.bin",
                                  key: try Samples.key("ecdsa-p256"), options: options,
                                  target: .init(connector: connector, peer: PeerIdentity("serial:/dev/ttyTEST"), speaks: .smp),
                                  hostPower: .mains)
        let run = engine.start()
        var events: [UpdateEvent] = []
        for await event in run.events { events.append(event) }
        return EngineOutcome(events: events, result: await run.result.value)
    }

    var device: VirtualDevice {
        get async { await server.snapshot }
    }
}

extension SerialServeOptions {
    static var fastLine: SerialServeOptions {
        var options = SerialServeOptions()
        options.baud = 1_000_000
        return options
    }
}
