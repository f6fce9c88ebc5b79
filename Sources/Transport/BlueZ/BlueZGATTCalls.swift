import DBusBinding
import Transport

/// The GATT calls behind one `BlueZLink`: acquiring fds, WriteValue with InProgress retries,
/// notifications by fd or by signal, and what each BlueZ error means for the link (§1.6). A value
/// of its own (not methods of the link) because the connector needs the same calls before the
/// link exists, to learn the MTU.
struct BlueZGATTCalls: Sendable {
    let client: BlueZClient
    let state: BlueZLinkState

    /// Replies to GATT calls normally come within a connection event or two; this only bounds a
    /// stuck bluetoothd.
    static let operationTimeout = Duration.seconds(30)

    /// AcquireWrite on `info`; true when a socket is now held. Refusals (NotSupported, NotPermitted
    /// "Write acquired" by another client, Failed) switch the characteristic to WriteValue for good;
    /// "Not connected" and a vanished object end the link.
    func acquireWrite(_ info: BlueZCharacteristicInfo) async throws(LinkError) -> Bool {
        guard let (socket, _) = try await acquire(info, member: "AcquireWrite", notify: false) else {
            state.markAcquireRefused(for: info.id)
            return false
        }
        return state.keep(socket, for: info.id, notify: false)
    }

    /// Calls AcquireWrite/AcquireNotify and adopts the fd; nil when BlueZ refused in a way that
    /// leaves the D-Bus path open. Also used by the connector to learn the ATT MTU.
    func acquire(_ info: BlueZCharacteristicInfo, member: String, notify: Bool) async throws(LinkError)
        -> (BlueZAcquiredSocket, Int)? {
        let reply: [DBusValue]
        do throws(DBusError) {
            reply = try await client.call(info.path, BlueZNames.gattCharacteristic, member, [.properties([:])],
                                          timeout: Self.operationTimeout)
        } catch {
            switch BlueZFailure(error, context: .gatt) {
            case .notConnected, .objectGone, .busLost, .bluetoothdGone, .cancelled:
                throw fail(error, on: info.id, member)
            default:
                return nil
            }
        }
        guard reply.count >= 2, case .unixFD(let fd) = reply[0], case .uint16(let mtu) = reply[1] else { return nil }
        let state = self.state
        let store = client.store
        let target: CharacteristicID? = notify ? info.id : nil
        do throws(SystemCallError) {
            let socket = try BlueZAcquiredSocket.adopt(fd, mtu: Int(mtu)) { event in
                state.handleSocket(event, notifying: target).map(store.removeObserver)
            }
            return (socket, Int(mtu))
        } catch {
            return nil
        }
    }

    /// WriteValue with `type` ("command" or "request"), retrying InProgress (another client's
    /// write on the same characteristic; ours are serialised by the gate) every 10 ms for at most
    /// 5 s, as bleak does. The caller holds the characteristic's gate.
    func writeValue(_ bytes: [UInt8], to info: BlueZCharacteristicInfo, type: String) async throws(LinkError) {
        let giveUp = ContinuousClock.now.advanced(by: .seconds(5))
        while true {
            try state.checkOpen()
            do throws(DBusError) {
                _ = try await client.call(info.path, BlueZNames.gattCharacteristic, "WriteValue",
                                          [.bytes(bytes), .properties(["type": .string(type)])],
                                          timeout: Self.operationTimeout)
                return
            } catch {
                guard BlueZFailure(error, context: .gatt) == .inProgress, ContinuousClock.now < giveUp else {
                    throw fail(error, on: info.id, "WriteValue")
                }
            }
            do {
                try await Task.sleep(for: .milliseconds(10))
            } catch {
                throw .cancelled
            }
        }
    }

    /// StartNotify with Value signals routed first, so no early notification is lost. InProgress
    /// means this client already has a session (it survives reconnects in BlueZ): subscribed.
    func startNotify(_ info: BlueZCharacteristicInfo) async throws(LinkError) {
        state.routeValueSignals(of: info.path, to: info.id)
        do throws(DBusError) {
            _ = try await client.call(info.path, BlueZNames.gattCharacteristic, "StartNotify", timeout: Self.operationTimeout)
        } catch {
            if BlueZFailure(error, context: .gatt) == .inProgress {
                client.notifySessions.opened(info.path, device: state.devicePath)
                return
            }
            state.stopRoutingValueSignals(of: info.path)
            throw fail(error, on: info.id, "StartNotify")
        }
        client.notifySessions.opened(info.path, device: state.devicePath)
    }

    /// The link's words for a failed GATT call; ends the link when the failure says it is down.
    func fail(_ error: DBusError, on id: CharacteristicID, _ member: String) -> LinkError {
        switch BlueZFailure(error, context: .gatt) {
        case .attError(let code):
            return .rejected(id, code)
        case .cancelled:
            return .cancelled
        case .notConnected:
            return ended(.other("the device is not connected (\(member): \(error))"))
        case .objectGone:
            return ended(.other("the device's GATT objects vanished (\(member))"))
        case .busLost:
            return ended(.other("the D-Bus connection to bluetoothd was lost"))
        case .bluetoothdGone:
            return ended(.other("bluetoothd stopped"))
        case .timedOut:
            return .backend("bluetoothd did not answer \(member) on \(id) in time")
        default:
            return .backend("\(member) on \(id): \(error)")
        }
    }

    private func ended(_ reason: DisconnectReason) -> LinkError {
        if let observer = state.end(reason) { client.store.removeObserver(observer) }
        return .disconnected(state.endReason ?? reason)
    }
}
