import Transport

/// What GATT calls meet on a link below a protected characteristic's requirement (bluez-dbus.md
/// §9, measured on 5.66): requests make BlueZ raise security itself with the default agent
/// (att.c `handle_error_rsp` → `change_security`, then the kernel pairs); Write Commands are
/// dropped by the device; AcquireNotify is never answered.
extension StandInCore {
    /// The level `characteristic` needs (`BlueZStandInSecurity.protects`); `.none` for open ones.
    func requirement(_ characteristic: CharacteristicState, _ connection: ConnectionState) -> BlueZStandInLinkSecurity {
        guard BlueZStandInSecurity.protects(characteristic.properties),
              let security = peripherals[connection.peripheral]?.spec.security else { return .none }
        return security.requiredLevel
    }

    func isInsecure(_ characteristic: CharacteristicState, _ connection: ConnectionState) -> Bool {
        connection.security < requirement(characteristic, connection)
    }

    /// Before a request (ReadValue, WriteValue request, StartNotify's CCC write): returns once the
    /// link meets the requirement, pairing with the DEFAULT agent if needed (no bonding request,
    /// so device.c `new_auth` takes `agent_get(NULL)`). An encrypted link that needs
    /// authentication cannot be raised further: NotPermitted "Not paired" (gatt-client.c
    /// `create_gatt_dbus_error` for 0x05), link kept. A failed pairing: Failed "…0x0e" and the
    /// link is gone.
    func secureForRequest(_ path: String) async throws {
        while true {
            let (characteristic, connection) = try live(path)
            let needed = requirement(characteristic, connection)
            guard connection.security < needed else { return }
            if connection.security >= .encrypted { throw StandInError.notPermitted("Not paired") }
            let device = characteristic.device
            if pairings[device] != nil {
                // Another call (or Device1.Pair) is pairing: its outcome decides; look again.
                await waitForPairing(device)
                continue
            }
            let id = nextID()
            let agent = agent(for: nil)
            pairings[device] = PairingState(id: id, requested: false, agent: agent)
            let outcome = await runPairing(device, connection: connection.id, agent: agent, minimum: needed)
            endPairing(device, id)
            guard case .success = outcome else { throw StandInError.failed("Operation failed with ATT error: 0x0e") }
        }
    }

    /// AcquireNotify on an insecure link: bluetoothd 5.66 writes the CCC, gets the error and
    /// never replies (it later crashes: fixed in 5.84, bluez 476ae809a). The call stays
    /// unanswered until the stand-in stops; the caller's own timeout ends it.
    func leaveUnanswered() async {
        await withCheckedContinuation { unanswered.append($0) }
    }
}
