import Transport

/// A sans-I/O virtual device as a GATT server sees it, so one BlueZ peripheral driver can serve
/// every protocol's device (`SMPPeripheralModel`, `NordicPeripheralModel`). The driver turns D-Bus
/// calls and signals into `PeripheralModelEvent`s, and carries out the actions in order.
///
/// A device may offer more than one GATT database over its life (a Nordic application and its
/// bootloader): all of them are known up front (`databases`), so each is exported once and the
/// driver only registers the current one.
public protocol PeripheralModel: Sendable {
    /// Every GATT database the device can offer; `currentDatabase` indexes it.
    var databases: [[GATTService]] { get }
    var currentDatabase: Int { get }
    /// The service UUID advertised now.
    var advertisedService: ServiceID { get }
    /// The name advertised now when the device picks it (a bootloader's `DfuTarg`); nil: the
    /// name the server was given.
    var advertisedName: String? { get }
    /// Characteristics guarded by `dfu sim --security` (value and CCC).
    var securedCharacteristics: Set<CharacteristicID> { get }
    /// The device identity (the default advertised name ends with it).
    var identity: PeerIdentity { get }
    /// The earliest instant at which a `.tick` has something to do.
    var nextDeadline: MonotonicInstant? { get }
    /// Resets and boots so far, and what runs now, for the server's last line.
    var bootCount: Int { get }
    var runningVersion: String { get }

    mutating func handle(_ event: PeripheralModelEvent, now: MonotonicInstant) -> [PeripheralModelAction]
    /// A GATT read; nil: read not permitted.
    func read(_ characteristic: CharacteristicID) -> [UInt8]?
    /// What a written or notified value means, for `--verbose` (an SMP header); nil: nothing to add.
    func describe(_ value: [UInt8], on characteristic: CharacteristicID) -> String?
}

public enum PeripheralModelEvent: Sendable, Hashable {
    /// A central's link is up and its ATT MTU known; `notificationSize` is the longest value a
    /// notification may carry.
    case connected(notificationSize: Int)
    /// The central enabled notifications or indications on this characteristic.
    case subscribed(CharacteristicID)
    case write(CharacteristicID, [UInt8], withResponse: Bool)
    case disconnected
    case tick
}

public enum PeripheralModelAction: Sendable, Hashable {
    /// One notification (an indication where the characteristic indicates), after `after`.
    case notify(CharacteristicID, [UInt8], after: Duration)
    /// Answer the Write Request being handled with this ATT error.
    case refuseWrite(ATTError)
    /// Close the link from the device side, after what is queued went out.
    case dropLink(reason: String)
    /// Stop advertising (a reset begins; before the link drops, reference §8).
    case stopAdvertising
    /// Unregister the GATT application (the reset, after the link dropped).
    case unregisterApplication
    /// Register the current database and advertise again (a boot ended).
    case online
    /// Something for the server's log.
    case report(BlueZPeripheralEvent)
}
