import DFUCore
import Transport
import UDPTransport

/// Serves one `VirtualDevice` over UDP the way Zephyr's SMP UDP transport (`smp_udp.c`) serves
/// MCUmgr: one SMP packet per datagram in each direction, each reply sent to whoever sent the
/// request (see `ReplyRoutes`), so smpclient, smpmgr or `dfu --device udp:HOST:PORT` can talk to it.
///
///     let server = try await VirtualDeviceUDPServer.serve(SimOptions.parse("sim:version=1.0.0"),
///                                                         at: "127.0.0.1:0") { print($0) }
///     print(server.localAddress)      // 127.0.0.1:40123
///     …
///     await server.stop()
///
/// The thin driver around the sans-I/O device, like `VirtualPeripheral` for the memory link; it
/// makes no protocol decisions. Its only waits come from the model: one timer at the device's
/// `nextDeadline` (a reply's flash time, the reset delay, the end of a boot) and the `after` delay
/// of a delayed reply. Time is the `LinkClock`'s, real time by default.
///
/// UDP has no connection, so the device's connection events map this way:
/// - `.connected(notificationSize: nil)` is given before a datagram whenever the running device is
///   not connected: at the first datagram, and at the first after a reset or a `disconnect@` fault.
///   `nil` makes every reply one datagram.
/// - `.disconnected` is never given. A client that goes away is invisible over UDP, and Zephyr's
///   UDP transport never discards queued requests for it. So several clients may talk to the
///   device in turn, all as one "link"; its state (slots, upload session, boots) lives as long as
///   the server.
/// - The device's `.dropLink` (a reset, a `disconnect@` fault) closes nothing: replies still
///   being processed are lost, as the device says, and the next datagram connects again.
/// - While the device resets and boots, datagrams are ignored (`ignoredWhileDown`), as a device
///   that is down receives nothing.
///
/// Datagrams longer than `receiveLimit` (Zephyr's `CONFIG_MCUMGR_TRANSPORT_UDP_MTU`, 1500) are cut
/// to it before the device sees them, as `recvfrom` into that buffer cuts them; the device then cuts
/// again at its `buf_size`. A packet cut short is answered `rc 9` (reference §8).
public actor VirtualDeviceUDPServer {
    /// `CONFIG_MCUMGR_TRANSPORT_UDP_MTU`'s default: the receive buffer of Zephyr's UDP transport.
    public static let zephyrUDPMTU = 1500

    /// One reply waiting to leave: replies go out in order, each after its fault delay.
    private struct Outgoing: Sendable {
        let bytes: [UInt8]
        let after: Duration
        let destination: SocketAddress
    }

    /// The bound address, with the port the kernel chose for port 0.
    public nonisolated let localAddress: SocketAddress
    public nonisolated let identity: PeerIdentity
    public nonisolated let receiveLimit: Int
    private let socket: UDPServerSocket
    private let clock: LinkClock
    private let observer: @Sendable (UDPServerEvent) -> Void
    private var device: VirtualDevice
    private var routes = ReplyRoutes()
    private var uploads = UploadWatch()
    private var outbox: [Outgoing] = []
    private var draining = false
    private var timer = DeadlineTimer()
    private var receiver: Task<Void, Never>?
    private var finished = false
    private var finishWaiters: [CheckedContinuation<Void, Never>] = []

    /// Serves `device` on `socket`. `device` should be built with `framing: .datagram` (one packet
    /// per datagram, cut at `buf_size`), as `serve` does. `observer` is called on the server's
    /// executor for each event, in order; keep it short (print a line). Call `start()` next.
    public init(device: VirtualDevice, socket: UDPServerSocket, clock: LinkClock = .realTime(),
                receiveLimit: Int = VirtualDeviceUDPServer.zephyrUDPMTU,
                observer: @escaping @Sendable (UDPServerEvent) -> Void = { _ in }) {
        self.device = device
        self.socket = socket
        self.clock = clock
        self.receiveLimit = max(1, receiveLimit)
        self.observer = observer
        localAddress = socket.localAddress
        identity = device.identity
    }

    /// Builds the device `options` describe (datagram framing), binds `address` (`HOST:PORT`,
    /// `[IPv6]:PORT`; port 0 for any free one) and starts serving.
    public static func serve(_ options: SimOptions, at address: String, clock: LinkClock = .realTime(),
                             receiveLimit: Int = zephyrUDPMTU,
                             observer: @escaping @Sendable (UDPServerEvent) -> Void = { _ in })
        async throws(UDPServeError) -> VirtualDeviceUDPServer {
        let device: VirtualDevice
        do throws(SimOptionsError) {
            device = try options.makeDevice(framing: .datagram)
        } catch {
            throw .options(error)
        }
        let socket: UDPServerSocket
        do throws(UDPSocketError) {
            socket = try await UDPServerSocket.bind(address)
        } catch {
            throw .socket(error)
        }
        let server = VirtualDeviceUDPServer(device: device, socket: socket, clock: clock,
                                            receiveLimit: receiveLimit, observer: observer)
        await server.start()
        return server
    }

    /// The device as it is now (a copy): slots, upload session, boots, battery.
    public var snapshot: VirtualDevice { device }

    /// Starts taking datagrams, in arrival order. Calling it again does nothing.
    public func start() {
        guard receiver == nil, !finished else { return }
        let datagrams = socket.datagrams
        // Weak: a server nobody holds any more closes its socket (deinit), which ends this loop.
        receiver = Task { [weak self] in
            for await datagram in datagrams {
                guard let self else { return }
                await self.receive(datagram)
            }
            await self?.finish()
        }
    }

    /// Stops serving: the timer and pending replies are dropped and the socket closed (the port is
    /// free when this returns). Idempotent.
    public func stop() async {
        receiver?.cancel()
        timer.cancel()
        outbox.removeAll()
        await socket.close()
        finish()
    }

    /// Returns once the server has stopped: `stop()`, or a receive error that ended the socket
    /// (then `failure` says which).
    public func waitUntilStopped() async {
        if finished { return }
        await withCheckedContinuation { finishWaiters.append($0) }
    }

    /// The receive error that ended the socket; nil while serving or after `stop()`.
    public nonisolated var failure: SystemCallError? { socket.failure }

    private func finish() {
        guard !finished else { return }
        finished = true
        timer.cancel()
        let waiters = finishWaiters
        finishWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    // MARK: - Driving the device

    private func receive(_ datagram: UDPServerSocket.Datagram) {
        guard !finished else { return }
        let now = clock.now
        // Catch up first: a boot that ended since the last event makes the device reachable again.
        var actions = device.handle(.tick, now: now)
        let sender = datagram.sender
        if case .booting = device.power {
            perform(actions)
            observer(.ignoredWhileDown(size: datagram.bytes.count, from: sender))
            return
        }
        var bytes = datagram.bytes
        if bytes.count > receiveLimit {
            observer(.truncated(size: bytes.count, limit: receiveLimit, from: sender))
            bytes = Array(bytes.prefix(receiveLimit))
        }
        observer(.received(size: bytes.count, from: sender, header: try? SMPHeader(decoding: bytes)))
        routes.record(bytes, from: sender)
        if !device.isConnected { actions += device.handle(.connected(notificationSize: nil), now: now) }
        actions += device.handle(.write(bytes), now: now)
        perform(actions, sender: sender)
    }

    private func tick() {
        timer.fired()
        guard !finished else { return }
        perform(device.handle(.tick, now: clock.now))
    }

    /// Carries out the device's actions in order, then re-arms the timer.
    private func perform(_ actions: [VirtualDevice.Action], sender: SocketAddress? = nil) {
        if let change = uploads.observe(device.server.uploadSession) { report(change, sender: sender) }
        for action in actions {
            switch action {
            case .notify(let bytes, let after, _):
                if let change = uploads.reply(bytes, session: device.server.uploadSession) { report(change) }
                // Replies leave in the order the device made them, as Zephyr's single work queue
                // sends them; a duplicate goes to the same client as the original.
                guard let destination = routes.destination(of: bytes) else { continue }
                enqueue(Outgoing(bytes: bytes, after: after, destination: destination))
            case .dropLink:
                // Nothing to close over UDP; the device already counts itself disconnected.
                break
            case .rebooting(_, let report):
                if let change = uploads.reset() { self.report(change) }
                observer(.rebooting(report))
            case .online:
                observer(.online(running: device.runningImage, boot: device.boots.count + 1))
            case .dropped(let drop):
                observer(.dropped(drop))
            case .faultInjected(let fault):
                observer(.faultInjected(fault))
            }
        }
        armTimer()
    }

    private func report(_ change: UploadWatch.Change, sender: SocketAddress? = nil) {
        switch change {
        case .started(let length): observer(.uploadStarted(length: length, from: sender))
        case .completed(let length):
            observer(.uploadCompleted(length: length, image: device.server.bootloader.uploadedImage))
        case .lost(let offset, let length): observer(.uploadLost(offset: offset, length: length))
        }
    }

    /// One timer at the device's next deadline, replaced whenever the device changes.
    private func armTimer() {
        timer.arm(at: finished ? nil : device.nextDeadline, on: clock) { [weak self] in await self?.tick() }
    }

    // MARK: - Sending

    private func enqueue(_ reply: Outgoing) {
        outbox.append(reply)
        guard !draining else { return }
        draining = true
        Task { await self.drain() }
    }

    /// Sends queued replies one by one, in order; a delayed one holds back those behind it.
    private func drain() async {
        while !outbox.isEmpty, !finished {
            let reply = outbox.removeFirst()
            if reply.after > .zero {
                do {
                    try await clock.sleep(until: clock.now.advanced(by: reply.after))
                } catch {
                    break
                }
            }
            do throws(UDPSocketError) {
                try await socket.send(reply.bytes, to: reply.destination)
                observer(.replied(size: reply.bytes.count, to: reply.destination,
                                  header: try? SMPHeader(decoding: reply.bytes)))
            } catch {
                observer(.replyFailed(to: reply.destination, reason: error.description))
            }
        }
        draining = false
    }
}
