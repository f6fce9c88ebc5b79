import Transport

/// Everything that touches libdbus for one connection, confined to that connection's owner thread.
///
/// Threading: the loop is created on a dedicated thread, never leaves it (it is not Sendable and is
/// only ever reached as the argument of a queued `DBusJobQueue.Job`), and drives libdbus there:
/// Transport's one wait (`SystemCall.waitForReadiness`) over libdbus's watches plus the job
/// queue's wake channel, until the earliest call deadline, then the ready watches, the queued
/// jobs, dispatch, and expired deadlines. libdbus callbacks (watches, filter, pending-call notify)
/// only run inside those calls, so they run on this thread too. Results leave through Sendable
/// channels only: checked continuations and `AsyncStream` continuations.
final class DBusConnectionLoop {
    private struct OutgoingCall {
        var pending: DBusPendingCallPointer
        /// Resumes the caller's continuation, or carries on the loop's own work (owner lookups).
        var complete: (Result<[DBusValue], any Error>) -> Void
        var deadline: ContinuousClock.Instant
        var member: String
        var timeout: Duration
    }

    private struct Subscription {
        var rule: DBusMatchRule
        var continuation: AsyncStream<DBusSignal>.Continuation
    }

    let connection: DBusConnectionPointer
    let jobs: DBusJobQueue
    private var running = true
    /// Nil while usable; the error every later request fails with once the connection is gone.
    private var failure: DBusError?
    private var calls: [UInt64: OutgoingCall] = [:]
    private var cancelledBeforeStart: Set<UInt64> = []
    private var subscriptions: [UInt64: Subscription] = [:]
    private var nameOwners = DBusNameOwners()
    var objects: [String: DBusExportedObject] = [:]
    var managerRoots: Set<String> = []
    /// Method calls to our objects waiting for their handler's answer.
    var incoming: [UInt64: DBusMessagePointer] = [:]
    /// How many calls were handed to handlers so far (`DBusMethodCall.arrival`).
    var handedToHandlers: UInt64 = 0

    private init(connection: DBusConnectionPointer, jobs: DBusJobQueue) {
        self.connection = connection
        self.jobs = jobs
        connection.onMessage = { [unowned self] message in self.received(message) }
    }

    /// The body of the owner thread: connects, reports the unique name (or the error), then runs
    /// until shut down.
    static func run(address: String?, jobs: DBusJobQueue,
                    ready: @Sendable (Result<String, any Error>) -> Void) {
        let loop: DBusConnectionLoop
        do {
            loop = DBusConnectionLoop(connection: try DBusConnectionPointer(address: address), jobs: jobs)
        } catch {
            _ = jobs.stop()
            ready(.failure(error))
            return
        }
        ready(.success(loop.connection.uniqueName))
        loop.loop()
    }

    private func loop() {
        while running {
            for job in jobs.takeAll() { job(self) }
            connection.dispatchAll()
            guard running else { break }

            let requests = failure == nil ? connection.pollRequests() : []
            let watches = requests.map { request in
                PollWatch(descriptor: request.descriptor, writable: request.wantsWrite, readable: request.wantsRead)
            }
            // A failed poll (only ENOMEM or a bad descriptor libdbus handed us) is a turn with
            // nothing ready: the jobs, dispatch and deadlines above still run.
            let seen = (try? SystemCall.waitForReadiness(of: watches, wakeChannel: jobs.wakeChannel,
                                                         until: calls.values.map(\.deadline).min())) ?? []
            for (request, readiness) in zip(requests, seen) where !readiness.isEmpty {
                connection.handle(request, readable: readiness.input, writable: readiness.output,
                                  error: readiness.error, hangUp: readiness.hungUp)
            }
            expireDeadlines()
        }
        tearDown()
    }

    private func expireDeadlines() {
        let now = ContinuousClock.now
        for (id, call) in calls where call.deadline <= now {
            calls[id] = nil
            call.pending.cancel()
            call.complete(.failure(DBusError.timedOut(member: call.member, after: call.timeout)))
        }
    }

    private func tearDown() {
        fail(with: failure ?? .closed)
        failure = .closed
        connection.close()
        for job in jobs.stop() { job(self) }
    }

    /// Fails every waiting caller and ends every subscription.
    private func fail(with error: DBusError) {
        failure = error
        let waiting = calls
        calls.removeAll()
        for call in waiting.values {
            call.pending.cancel()
            call.complete(.failure(error))
        }
        nameOwners.failAll(error)
        let streams = subscriptions
        subscriptions.removeAll()
        for subscription in streams.values { subscription.continuation.finish() }
        incoming.removeAll()
    }

    // MARK: Jobs (called on the owner thread through DBusJobQueue)

    func shutDown() {
        running = false
    }

    func startCall(id: UInt64, destination: String?, path: String, interface: String?, member: String,
                   arguments: [DBusValue], timeout: Duration,
                   continuation: CheckedContinuation<[DBusValue], any Error>) {
        if cancelledBeforeStart.remove(id) != nil { return continuation.resume(throwing: DBusError.cancelled) }
        send(id: id, destination: destination, path: path, interface: interface, member: member,
             arguments: arguments, timeout: timeout) { continuation.resume(with: $0) }
    }

    /// Sends a method call whose reply (or error, deadline, failure) goes to `complete`, on this thread.
    private func send(id: UInt64, destination: String?, path: String, interface: String?, member: String,
                      arguments: [DBusValue], timeout: Duration,
                      complete: @escaping (Result<[DBusValue], any Error>) -> Void) {
        if let failure { return complete(.failure(failure)) }
        do {
            let message = try DBusMessagePointer.methodCall(destination: destination, path: path,
                                                            interface: interface, member: member)
            try message.append(arguments)
            let pending = try connection.sendWithReply(message) { [weak self] reply in
                self?.finishCall(id: id, reply: reply)
            }
            calls[id] = OutgoingCall(pending: pending, complete: complete,
                                     deadline: ContinuousClock.now.advanced(by: timeout),
                                     member: member, timeout: timeout)
        } catch {
            complete(.failure(error))
        }
    }

    func cancelCall(id: UInt64) {
        guard let call = calls.removeValue(forKey: id) else {
            cancelledBeforeStart.insert(id)
            return
        }
        call.pending.cancel()
        call.complete(.failure(DBusError.cancelled))
    }

    func addSubscription(id: UInt64, rule: DBusMatchRule, continuation: AsyncStream<DBusSignal>.Continuation) {
        guard failure == nil else { return continuation.finish() }
        subscriptions[id] = Subscription(rule: rule, continuation: continuation)
    }

    /// Drops a subscription and tells the bus to stop routing its signals (no reply awaited).
    func removeSubscription(id: UInt64, busRule: String) {
        guard subscriptions.removeValue(forKey: id) != nil, failure == nil else { return }
        if let message = try? DBusMessagePointer.methodCall(destination: DBusStandardInterface.bus,
                                                            path: "/org/freedesktop/DBus",
                                                            interface: DBusStandardInterface.bus, member: "RemoveMatch") {
            try? message.append([.string(busRule)])
            try? connection.send(message)
        }
    }

    /// Resumes `continuation` once `name`'s owner is known. The first time per connection: AddMatch
    /// for its NameOwnerChanged, then GetNameOwner, in that order so that no change between the
    /// two is missed. The match stays for the connection's life (one per name, shared by all
    /// subscriptions naming it), so later subscriptions find the owner already known.
    func watchOwner(of name: String, continuation: CheckedContinuation<Void, any Error>) {
        if let failure { return continuation.resume(throwing: failure) }
        let rule: String
        do { rule = try DBusNameOwners.ownerChangeRule(name) } catch { return continuation.resume(throwing: error) }
        switch nameOwners.watch(name, continuation) {
        case .known: return continuation.resume()
        case .waiting: return
        case .begin: break
        }
        callBus("AddMatch", [.string(rule)]) { [unowned self] added in
            if case .failure(let error) = added { return nameOwners.fail(name, error) }
            callBus("GetNameOwner", [.string(name)]) { [unowned self] answer in
                switch answer {
                case .success(let values):
                    guard let owner = try? values.first?.asString(), owner.hasPrefix(":") else {
                        return nameOwners.fail(name, DBusError.malformed("GetNameOwner answered \(values)"))
                    }
                    nameOwners.settle(name, owner: owner)
                case .failure(DBusError.remote(DBusNameOwners.noOwnerError, _)):
                    nameOwners.settle(name, owner: nil)
                case .failure(let error):
                    nameOwners.fail(name, error)
                }
            }
        }
    }

    private func callBus(_ member: String, _ arguments: [DBusValue],
                         complete: @escaping (Result<[DBusValue], any Error>) -> Void) {
        send(id: jobs.nextID(), destination: DBusStandardInterface.bus, path: "/org/freedesktop/DBus",
             interface: DBusStandardInterface.bus, member: member, arguments: arguments,
             timeout: .seconds(25), complete: complete)
    }

    func emitSignal(path: String, interface: String, member: String, arguments: [DBusValue]) throws {
        if let failure { throw failure }
        let message = try DBusMessagePointer.signal(path: path, interface: interface, member: member)
        try message.append(arguments)
        try connection.send(message)
    }

    func export(_ object: DBusExportedObject) throws {
        if let failure { throw failure }
        try LibDBus.checkPath(object.path)
        for interface in object.interfaces.values {
            try LibDBus.checkInterface(interface.name)
            for member in interface.methods.keys { try LibDBus.checkMember(member) }
            for (name, value) in interface.properties {
                try LibDBus.checkMember(name)
                try DBusMessageWriter.validate(.variant(value))
            }
        }
        objects[object.path] = object
        for root in managerRoots where Self.isBelow(object.path, root) {
            try emitSignal(path: root, interface: DBusStandardInterface.objectManager, member: "InterfacesAdded",
                           arguments: [.objectPath(object.path), .interfaces(object.propertyTable)])
        }
    }

    func unexport(path: String) throws {
        if let failure { throw failure }
        guard let object = objects.removeValue(forKey: path) else { return }
        for root in managerRoots where Self.isBelow(path, root) {
            try emitSignal(path: root, interface: DBusStandardInterface.objectManager, member: "InterfacesRemoved",
                           arguments: [.objectPath(path), .strings(object.interfaces.keys.sorted())])
        }
    }

    func exportObjectManager(at root: String) throws {
        if let failure { throw failure }
        try LibDBus.checkPath(root)
        managerRoots.insert(root)
    }

    func setProperty(path: String, interface: String, name: String, value: DBusValue) throws {
        if let failure { throw failure }
        guard objects[path]?.interfaces[interface] != nil else {
            throw DBusError.invalidArgument("no exported interface \(interface) at \(path)")
        }
        try DBusMessageWriter.validate(.variant(value))
        objects[path]?.interfaces[interface]?.properties[name] = value
        try emitSignal(path: path, interface: DBusStandardInterface.properties, member: "PropertiesChanged",
                       arguments: [.string(interface), .properties([name: value]), .strings([])])
    }

    func finishIncoming(token: UInt64, result: Result<[DBusValue], DBusError>) {
        guard let call = incoming.removeValue(forKey: token), failure == nil else { return }
        reply(to: call, result)
    }

    // MARK: Incoming messages (libdbus callbacks, on the owner thread)

    private func finishCall(id: UInt64, reply: DBusMessagePointer?) {
        guard let call = calls.removeValue(forKey: id) else { return }
        call.complete(Result { try decodeReply(reply) })
    }

    private func decodeReply(_ reply: DBusMessagePointer?) throws -> [DBusValue] {
        guard let reply else { throw connection.isConnected ? DBusError.malformed("no reply message") : .disconnected }
        switch reply.type {
        case DBusTypeCode.methodReturn:
            return try reply.arguments()
        case DBusTypeCode.error:
            let name = reply.errorName
            // libdbus completes calls of a dead connection with a local NoReply: say what happened.
            if name == DBusErrorName.noReply, !connection.isConnected { throw DBusError.disconnected }
            let text = (try? reply.arguments()).flatMap { $0.first }.flatMap { try? $0.asString() } ?? ""
            throw DBusError.remote(name: name, message: text)
        default:
            throw DBusError.malformed("reply of message type \(reply.type)")
        }
    }

    private func received(_ message: DBusMessagePointer) -> Bool {
        switch message.type {
        case DBusTypeCode.signal:
            if message.isSignal(interface: DBusStandardInterface.local, member: "Disconnected") {
                fail(with: .disconnected)
                return true
            }
            deliverSignal(message)
            return false
        case DBusTypeCode.methodCall:
            return handleCall(message)
        default:
            return false
        }
    }

    private func deliverSignal(_ message: DBusMessagePointer) {
        guard !subscriptions.isEmpty || !nameOwners.isEmpty else { return }
        // A signal whose body we cannot read is dropped: there is no caller to give the error to.
        guard let arguments = try? message.arguments() else { return }
        let signal = DBusSignal(sender: message.sender, path: message.path, interface: message.interface,
                                member: message.member, arguments: arguments)
        // Owner changes first: every later signal is judged against the new owner.
        nameOwners.note(signal)
        for subscription in subscriptions.values
        where subscription.rule.matches(signal, senderOwner: nameOwners.resolve(subscription.rule.sender)) {
            subscription.continuation.yield(signal)
        }
    }
}
