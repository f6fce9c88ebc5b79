#if canImport(Glibc)
import Glibc
#endif

/// Method calls to our exported objects, on the connection's owner thread: Properties,
/// ObjectManager and Introspectable are answered here; every other method goes to its handler in
/// a task of its own, whose answer comes back as a job (`finishIncoming`).
extension DBusConnectionLoop {
    func handleCall(_ message: DBusMessagePointer) -> Bool {
        let path = message.path
        let interface = message.interface
        let member = message.member
        let isManager = managerRoots.contains(path)
        if member == "Introspect", interface == DBusIntrospection.interface || interface.isEmpty {
            guard let xml = DBusIntrospection.xml(path: path, objects: objects, managerRoots: managerRoots) else { return false }
            reply(to: message, .success([.string(xml)]))
            return true
        }
        guard objects[path] != nil || isManager else { return false }
        let arguments: [DBusValue]
        do {
            arguments = try message.arguments()
        } catch {
            reply(to: message, .failure(.remote(name: DBusErrorName.invalidArgs, message: "\(error)")))
            return true
        }
        if interface == DBusStandardInterface.objectManager, member == "GetManagedObjects", isManager {
            let below = objects.filter { Self.isBelow($0.key, path) }.mapValues(\.propertyTable)
            reply(to: message, .success([.managedObjects(below)]))
            return true
        }
        guard let object = objects[path] else { return false }
        if interface == DBusStandardInterface.properties {
            reply(to: message, Result { try object.answerProperties(member: member, arguments: arguments) }
                .mapError { ($0 as? DBusError) ?? .remote(name: DBusErrorName.failed, message: "\($0)") })
            return true
        }
        let handler: DBusMethodHandler?
        if interface.isEmpty {
            handler = object.interfaces.values.sorted { $0.name < $1.name }.lazy.compactMap { $0.methods[member] }.first
        } else if let exported = object.interfaces[interface] {
            handler = exported.methods[member]
        } else {
            reply(to: message, .failure(.remote(name: DBusErrorName.unknownInterface,
                                                message: "no interface \(interface) at \(path)")))
            return true
        }
        guard let handler else {
            reply(to: message, .failure(.remote(name: DBusErrorName.unknownMethod,
                                                message: "no method \(member) in \(interface) at \(path)")))
            return true
        }
        handedToHandlers += 1
        let call = DBusMethodCall(sender: message.sender, path: path, interface: interface, member: member,
                                  arguments: arguments, arrival: handedToHandlers)
        let token = jobs.nextID()
        if message.expectsReply { incoming[token] = message }
        let jobs = self.jobs
        // The handler runs off this thread; its answer comes back as a job.
        Task {
            let result: Result<[DBusValue], DBusError>
            do {
                result = .success(try await handler(call))
            } catch let error as DBusError {
                if case .remote = error { result = .failure(error) } else {
                    result = .failure(.remote(name: DBusErrorName.failed, message: error.description))
                }
            } catch {
                result = .failure(.remote(name: DBusErrorName.failed, message: "\(error)"))
            }
            _ = jobs.submit { $0.finishIncoming(token: token, result: result) }
        }
        return true
    }

    func reply(to call: DBusMessagePointer, _ result: Result<[DBusValue], DBusError>) {
        guard call.expectsReply else { return }
        let message: DBusMessagePointer?
        switch result {
        case .success(let values):
            do {
                let answer = try call.methodReturn()
                try answer.append(values)
                message = answer
            } catch {
                // A handler returned values that are not valid D-Bus: say so to the caller.
                message = try? call.errorReply(name: DBusErrorName.failed, message: "invalid reply: \(error)")
            }
        case .failure(let error):
            if case .remote(let name, let text) = error {
                message = try? call.errorReply(name: name, message: text)
            } else {
                message = try? call.errorReply(name: DBusErrorName.failed, message: error.description)
            }
        }
        if let message { try? connection.send(message) }
    }

    /// Whether `path` lies strictly below `root` (ObjectManager reports descendants only).
    static func isBelow(_ path: String, _ root: String) -> Bool {
        guard path != root else { return false }
        return root == "/" ? path.hasPrefix("/") : path.hasPrefix(root + "/")
    }
}
