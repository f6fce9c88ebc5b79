import DFUCore
import Transport

/// Carrying out the device's actions: notifications, link drops, and the unregister/register
/// steps around a reboot, one at a time in the order the device asked for them.
extension BlueZPeripheral {
    func perform(_ actions: [VirtualDevice.Action]) {
        if let change = uploads.observe(device.server.uploadSession) { report(change) }
        // Advertising stops before the link drops (reference §8): a central waiting to reconnect
        // must not find the device again while it is still in the bootloader.
        if actions.contains(where: { if case .rebooting = $0 { true } else { false } }) {
            enqueue(.unregisterAdvertisement)
        }
        for action in actions {
            switch action {
            case .notify(let bytes, let after, _):
                if let change = uploads.reply(bytes, session: device.server.uploadSession) { report(change) }
                if let central = centrals.current, central.deviceConnected {
                    enqueue(.notify(bytes, after: after, generation: central.generation))
                } else {
                    observer(.notificationLost(size: bytes.count, reason: "no central is connected"))
                }
            case .dropLink(let cause):
                guard let central = centrals.drop() else { break }
                observer(.disconnecting(BlueZPeripheralEvent.central(at: central.path),
                                        reason: cause == .reboot ? "the device resets" : "a disconnect fault"))
                enqueue(.disconnect(central: central.path))
            case .rebooting(_, let bootReport):
                if let change = uploads.reset() { report(change) }
                observer(.rebooting(bootReport))
                enqueue(.unregisterApplication)
            case .online:
                observer(.online(running: device.runningImage, boot: device.boots.count + 1))
                enqueue(.register)
            case .dropped(let drop):
                observer(.dropped(drop))
            case .faultInjected(let fault):
                observer(.faultInjected(fault))
            }
        }
        armTimer()
    }

    private func report(_ change: UploadWatch.Change) {
        switch change {
        case .started(let length): observer(.uploadStarted(length: length))
        case .completed(let length):
            observer(.uploadCompleted(length: length, image: device.server.bootloader.secondaryImage))
        case .lost(let offset, let length): observer(.uploadLost(offset: offset, length: length))
        }
    }

    private func enqueue(_ item: Outgoing) {
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
        let adapterPath = BlueZNames.adapterPath(adapter)
        // A call cut short because the server stopped meanwhile is not worth a line.
        func failed(_ operation: String, _ reason: String) {
            if !finished { observer(.bluezCallFailed(operation: operation, reason: reason)) }
        }
        switch item {
        case .notify(let bytes, let after, let generation):
            if after > .zero { try? await clock.sleep(until: clock.now.advanced(by: after)) }
            // A reply for a link that is gone is lost, as bt_gatt_notify fails on a real device.
            guard centrals.current?.generation == generation else {
                observer(.notificationLost(size: bytes.count, reason: "the link it was for is gone"))
                return
            }
            guard notifying.contains(DeviceGATT.smpCharacteristic),
                  let path = application.path(of: DeviceGATT.smpCharacteristic) else {
                observer(.notificationLost(size: bytes.count, reason: "the central has not subscribed"))
                return
            }
            do {
                try await connection.setProperty(path: path, interface: BlueZNames.gattCharacteristic,
                                                 name: "Value", value: .bytes(bytes))
                observer(.notified(size: bytes.count, header: try? SMPHeader(decoding: bytes)))
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
                                    [.objectPath(advertisement.path)])
            } catch {
                failed("UnregisterAdvertisement", error.description)
            }
        case .unregisterApplication:
            guard applicationRegistered else { return }
            applicationRegistered = false
            // A new registration starts with no subscriptions.
            notifying.removeAll()
            do throws(BlueZServeError) {
                try await callBlueZ(adapterPath, BlueZNames.gattManager, "UnregisterApplication",
                                    [.objectPath(application.root)])
            } catch {
                failed("UnregisterApplication", error.description)
            }
        case .register:
            do throws(BlueZServeError) {
                try await register()
                observer(.advertising(name: name))
            } catch {
                failed("registering again", error.description)
            }
        }
    }
}
