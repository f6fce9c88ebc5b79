import BlueZTransport
import DFUCore
import Transport

/// Carrying out the model's actions: notifications, link drops, and the unregister/register steps
/// around a reboot, one at a time in the order the device asked for them.
extension BlueZPeripheral {
    func perform(_ actions: [PeripheralModelAction]) {
        for action in actions {
            switch action {
            case .notify(let characteristic, let bytes, let after):
                if let central = centrals.current, central.deviceConnected {
                    enqueue(.notify(characteristic, bytes, after: after, generation: central.generation))
                } else {
                    observer(.notificationLost(size: bytes.count, reason: "no central is connected"))
                }
            case .refuseWrite:
                // The caller answers the Write Request with it.
                break
            case .dropLink(let reason):
                guard let central = centrals.drop() else { break }
                observer(.disconnecting(BlueZPeripheralEvent.central(at: central.path), reason: reason))
                enqueue(.disconnect(central: central.path))
            case .stopAdvertising:
                enqueue(.unregisterAdvertisement)
            case .unregisterApplication:
                enqueue(.unregisterApplication)
            case .online:
                enqueue(.register)
            case .report(let event):
                observer(event)
            }
        }
        armTimer()
    }

    func enqueue(_ item: Outgoing) {
        guard !finished else { return }
        outbox.append(item)
        guard !draining else { return }
        draining = true
        Task { await self.drain() }
    }

    /// Carries out queued items one by one. The actor stays free while a call is under way
    /// (Disconnect takes about 2 s), so writes and signals keep being handled.
    private func drain() async {
        while !outbox.isEmpty, !finished {
            await carryOut(outbox.removeFirst())
        }
        draining = false
    }

    private func carryOut(_ item: Outgoing) async {
        let adapterPath = BlueZNames.adapterPath(registeredAdapter ?? adapter)
        // A call cut short because the server stopped meanwhile is not worth a line.
        func failed(_ operation: String, _ reason: String) {
            if !finished { observer(.bluezCallFailed(operation: operation, reason: reason)) }
        }
        switch item {
        case .notify(let characteristic, let bytes, let after, let generation):
            if after > .zero { try? await clock.sleep(until: clock.now.advanced(by: after)) }
            // A reply for a link that is gone is lost, as bt_gatt_notify fails on a real device.
            guard centrals.current?.generation == generation else {
                observer(.notificationLost(size: bytes.count, reason: "the link it was for is gone"))
                return
            }
            guard notifying.contains(characteristic), let path = registeredApplication?.path(of: characteristic) else {
                observer(.notificationLost(size: bytes.count, reason: "the central has not subscribed"))
                return
            }
            do {
                try await connection.setProperty(path: path, interface: BlueZNames.gattCharacteristic,
                                                 name: "Value", value: .bytes(bytes))
                observer(.notified(size: bytes.count, detail: model.describe(bytes, on: characteristic)))
            } catch {
                failed("notification", "\(error)")
            }
        case .disconnect(let central):
            do throws(BlueZServeError) {
                try await callBlueZ(central, BlueZNames.device, "Disconnect", [])
            } catch {
                failed("Device1.Disconnect", error.description)
            }
        case .unregisterAdvertisement:
            guard advertised else { return }
            advertised = false
            do throws(BlueZServeError) {
                try await callBlueZ(adapterPath, BlueZNames.advertisingManager, "UnregisterAdvertisement",
                                    [.objectPath(advertisementPath)])
            } catch {
                failed("UnregisterAdvertisement", error.description)
            }
            releaseAdapterIfUnused()
        case .unregisterApplication:
            guard let application = registeredApplication else { return }
            registeredDatabase = nil
            // A new registration starts with no subscriptions.
            notifying.removeAll()
            do throws(BlueZServeError) {
                try await callBlueZ(adapterPath, BlueZNames.gattManager, "UnregisterApplication",
                                    [.objectPath(application.root)])
            } catch {
                failed("UnregisterApplication", error.description)
            }
            releaseAdapterIfUnused()
        case .readvertise:
            await readvertise(on: adapterPath)
        case .register:
            do throws(BlueZServeError) {
                try await register()
                let on = registeredAdapter.flatMap { $0 == adapter ? nil : $0 }
                observer(.advertising(name: currentAdvertisement.name, adapter: on))
            } catch {
                failed("registering again", error.description)
            }
        }
    }
}
