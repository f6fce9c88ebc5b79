import BlueZTransport

/// Advertising started again now and then while no central is connected (`dfu sim --readvertise`).
///
/// A radio repeats its advertisement every interval, so a scanner hears it whenever it listens.
/// btvirt, the test rig's controller, reports an advertiser to a scanner only when a scan or the
/// advertising starts, and the kernel drops a report that comes before its discovery is under way;
/// on some boots a central that starts looking for a device already advertising then never hears
/// it (docs/test-bluez.md). Advertising that starts while the central listens is always reported,
/// so restarting it brings back what the radio would do. Not done while a central is connected:
/// the device serves one central, and a restart then would only invite a second.
extension BlueZPeripheral {
    func startReadvertising(every interval: Duration) {
        watchers.append(Task { [weak self] in
            while !Task.isCancelled {
                do { try await Task.sleep(for: interval) } catch { return }
                await self?.readvertiseIfIdle()
            }
        })
    }

    private func readvertiseIfIdle() {
        guard !finished, advertised, centrals.current == nil, outbox.isEmpty, !draining else { return }
        enqueue(.readvertise)
    }

    /// Unregisters the advertisement and registers it again, with nothing said unless a call fails.
    func readvertise(on adapterPath: String) async {
        guard advertised, centrals.current == nil else { return }
        do throws(BlueZServeError) {
            try await callBlueZ(adapterPath, BlueZNames.advertisingManager, "UnregisterAdvertisement",
                                [.objectPath(advertisementPath)])
            advertised = false
            try await register()
        } catch {
            if !finished { observer(.bluezCallFailed(operation: "advertising again", reason: error.description)) }
        }
    }
}
