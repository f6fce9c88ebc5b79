import Transport

/// One adapter the stand-in exports as `/org/bluez/<name>` (Adapter1).
public struct BlueZStandInAdapter: Sendable, Hashable {
    /// "hci0".
    public var name: String
    /// "AA:BB:CC:DD:EE:FF".
    public var address: String
    /// Powered off: StartDiscovery/StopDiscovery/SetDiscoveryFilter answer NotReady.
    public var powered: Bool

    public init(name: String = "hci0", address: String = "00:AA:01:00:00:00", powered: Bool = true) {
        self.name = name
        self.address = address
        self.powered = powered
    }
}

/// What a device advertises: what Device1 shows once the adapter heard it.
public struct BlueZStandInAdvertisement: Sendable, Hashable {
    /// Complete local name; nil: none (Alias then falls back to the address with dashes).
    public var name: String?
    /// Advertised service UUIDs (Device1.UUIDs, and what a discovery filter's UUIDs match).
    public var services: [ServiceID]
    /// Heard at this strength (dBm, −127…20; 0 means "no RSSI" to BlueZ, so avoid it).
    public var rssi: Int16
    /// "public" or "random".
    public var addressType: String
    /// Company id → bytes (Device1.ManufacturerData `a{qv}`, each value `ay`).
    public var manufacturerData: [UInt16: [UInt8]]
    /// LE General Discoverable flag: without it, a device is only reported to filtered discovery
    /// (adapter.c `device_is_discoverable`).
    public var discoverable: Bool

    public init(name: String? = nil, services: [ServiceID] = [], rssi: Int16 = -50, addressType: String = "random",
                manufacturerData: [UInt16: [UInt8]] = [:], discoverable: Bool = true) {
        self.name = name
        self.services = services
        self.rssi = rssi
        self.addressType = addressType
        self.manufacturerData = manufacturerData
        self.discoverable = discoverable
    }
}

/// How a GATT `Acquire*` call is refused when a test forces the fallback path.
public enum BlueZStandInRefusal: Sendable, Hashable {
    /// `org.bluez.Error.NotSupported` "Operation is not supported".
    case notSupported
    /// `org.bluez.Error.Failed` with this text.
    case failed(String)
    /// `org.freedesktop.DBus.Error.UnknownMethod`, as from a bluetoothd without the method.
    case unknownMethod
}

/// A device the stand-in can hear and connect to: the radio side is any `Connector` and the peer
/// it knows the device by (e.g. a `MemoryConnector` with DeviceSim's `VirtualPeripheral`).
public struct BlueZStandInDevice: Sendable {
    /// The Bluetooth address it advertises under ("C2:11:40:55:7A:01").
    public var address: String
    public var advertisement: BlueZStandInAdvertisement
    public var connector: any Connector
    public var peer: PeerIdentity
    /// The adapter that hears it.
    public var adapter: String

    // Knobs.
    /// The next N Device1.Connect calls fail with `org.bluez.Error.Failed` `connectFailureMessage`
    /// (without touching the connector), as a busy controller's `le-connection-abort-by-local` does.
    public var connectFailures: Int
    public var connectFailureMessage: String
    /// After the link drops other than by Device1.Disconnect (a reboot), the device advertises
    /// under this address: a new Device1; the old address is never heard again.
    public var addressAfterReboot: String?
    /// AcquireWrite refused: the central must fall back to WriteValue(type: command).
    public var refuseAcquireWrite: BlueZStandInRefusal?
    /// AcquireNotify refused: the central must fall back to StartNotify.
    public var refuseAcquireNotify: BlueZStandInRefusal?
    /// What its protected characteristics (`BlueZStandInSecurity.protects`) need from the link.
    public var security: BlueZStandInSecurity
    /// Its passkey: the one it types (KeyboardOnly, §9) or displays (DisplayOnly), or the number
    /// both sides show in a numeric comparison (DisplayYesNo, KeyboardDisplay). nil: Just Works only.
    public var passkey: UInt32?
    /// Its IO capability as bluetoothd sees it in the pairing; it picks the method and so which
    /// Agent1 method our agent gets (`StandInPairingMethod`).
    public var io: BlueZStandInDeviceIO
    /// The device forgot its bonds (a factory image): it keeps its address, but encryption with
    /// the central's stored key fails (`StandInCore.connect`).
    public var bondLost: Bool
    /// bluetoothd 5.66 when the ATT socket connects before the kernel's Device Connected event
    /// (device.c `att_connect_cb`): its links to the device read Connected=true, but no
    /// PropertiesChanged says so; ServicesResolved is signalled as usual.
    public var connectedUnreported: Bool
    /// A controller with its duplicate filter on, as btvirt's: the device is reported once per
    /// StartDiscovery, and the reports of the first `scanStartsMissed` starts are lost (the kernel
    /// drops a report that comes before its discovery is under way: the rig, test-bluez.md). Nil:
    /// heard every advertising interval.
    public var scanStartsMissed: Int?
    /// The same controller on a boot where the race is lost again and again: reported once per
    /// StartDiscovery up to the `lastScanStartHeard`th, and never at a later start (the rig:
    /// test-bluez.md). Nil: no such limit.
    public var lastScanStartHeard: Int?
    /// Whether the device model advertises now, asked at every advertising interval while someone
    /// discovers: a device that stops advertising while it reboots, or moves to another identity
    /// (a Nordic application resetting into its bootloader at the address + 1), is heard only
    /// while its model says so (`MemoryConnector.isAdvertising`). Nil: the `setAdvertising`
    /// knob alone. Connect does not ask it: a pending LE connection waits for the device.
    public var onAir: (@Sendable () async -> Bool)?
    /// The name the device model advertises now, asked with `onAir` at every advertising interval:
    /// a name replaces `advertisement.name` from then on (a Nordic bootloader advertises the name
    /// its application was given, `MemoryConnector.advertisedName`); nil leaves it as it is.
    public var nameOnAir: (@Sendable () async -> String?)?

    public init(address: String, advertisement: BlueZStandInAdvertisement, connector: any Connector,
                peer: PeerIdentity, adapter: String = "hci0", connectFailures: Int = 0,
                connectFailureMessage: String = "le-connection-abort-by-local", addressAfterReboot: String? = nil,
                refuseAcquireWrite: BlueZStandInRefusal? = nil, refuseAcquireNotify: BlueZStandInRefusal? = nil,
                security: BlueZStandInSecurity = .open, passkey: UInt32? = nil,
                io: BlueZStandInDeviceIO = .keyboardOnly, bondLost: Bool = false, connectedUnreported: Bool = false) {
        self.address = address.uppercased()
        self.advertisement = advertisement
        self.connector = connector
        self.peer = peer
        self.adapter = adapter
        self.connectFailures = connectFailures
        self.connectFailureMessage = connectFailureMessage
        self.addressAfterReboot = addressAfterReboot?.uppercased()
        self.refuseAcquireWrite = refuseAcquireWrite
        self.refuseAcquireNotify = refuseAcquireNotify
        self.security = security
        self.passkey = passkey
        self.io = io
        self.bondLost = bondLost
        self.connectedUnreported = connectedUnreported
    }
}

/// Timing of the stand-in. Short by default so tests stay fast; real bluetoothd's are longer.
public struct BlueZStandInTiming: Sendable, Hashable {
    /// How often, while discovering, every advertising device is heard.
    public var advertisingInterval: Duration
    /// From the Connect reply to ServicesResolved=true (GATT discovery time).
    public var servicesResolveDelay: Duration
    /// How long Device1.Connect waits for a device that does not answer (not advertising, or an
    /// address that is gone) before `Failed: le-connection-abort-by-local`.
    public var connectAttemptTimeout: Duration
    /// SO_SNDBUF of the AcquireWrite fd handed out: small, so a writer meets back-pressure
    /// (EAGAIN) after a few datagrams, while the device side is still busy.
    public var writeSocketBuffer: Int

    /// After a link loss (not Device1.Disconnect), how long the Connected=false signal trails the
    /// hang-up of the acquired sockets: bluetoothd shuts them at once but sends property changes
    /// from an idle callback (§2). Zero: together. (Properties.Get shows the old value meanwhile.)
    public var linkLossSignalDelay: Duration
    /// How long an Agent1 request may go unanswered before pairing fails with
    /// AuthenticationTimeout and the agent gets Cancel() (bluetoothd waits 60 s, agent.c
    /// `REQUEST_TIMEOUT`; short here so tests stay fast).
    public var agentTimeout: Duration
    /// How long bluetoothd's main loop is busy before it reads each AcquireWrite datagram. It reads
    /// one per turn and handles D-Bus calls between (gatt-client.c `sock_read`), so a WriteValue
    /// sent after datagrams that are still unread overtakes them. Zero: read at once.
    public var socketReadPause: Duration
    /// How long LE connection setup takes before a Connect to an advertising device succeeds (the
    /// controller's Create Connection up to the link), so tests can see Connects overlap.
    public var connectLatency: Duration

    public init(advertisingInterval: Duration = .milliseconds(20), servicesResolveDelay: Duration = .milliseconds(10),
                connectAttemptTimeout: Duration = .seconds(3), writeSocketBuffer: Int = 4096,
                linkLossSignalDelay: Duration = .zero, agentTimeout: Duration = .seconds(2),
                socketReadPause: Duration = .zero, connectLatency: Duration = .zero) {
        self.connectLatency = connectLatency
        self.advertisingInterval = advertisingInterval
        self.servicesResolveDelay = servicesResolveDelay
        self.connectAttemptTimeout = connectAttemptTimeout
        self.writeSocketBuffer = writeSocketBuffer
        self.linkLossSignalDelay = linkLossSignalDelay
        self.agentTimeout = agentTimeout
        self.socketReadPause = socketReadPause
    }
}

/// What the stand-in saw for one device (by its first address), for tests to assert on.
public struct BlueZStandInStatistics: Sendable, Hashable {
    /// Device1.Connect calls (on any address the device had), and those that produced a link.
    public var connectCalls = 0
    /// The address of each Device1.Connect call, in order.
    public var connectAddresses: [String] = []
    public var connections = 0
    public var disconnectCalls = 0
    /// Adapter1.RemoveDevice calls on this device's objects.
    public var removeDeviceCalls = 0
    /// AcquireWrite fd datagrams handed to the link, and those dropped (too long for the MTU).
    public var fdWrites = 0
    public var fdWritesDropped = 0
    /// WriteValue by type.
    public var writeCommands = 0
    public var writeRequests = 0
    public var reads = 0
    public var acquireWriteCalls = 0
    public var acquireNotifyCalls = 0
    public var startNotifyCalls = 0
    /// StartNotify sessions left from an earlier connection when a new one came up: bluetoothd
    /// writes their CCC again by itself (5.66 `register_notify`). dfu keeps it 0: it stops its
    /// sessions before it reconnects (`BlueZNotifySessions`).
    public var notifySessionsRearmed = 0
    /// Notifications delivered through the AcquireNotify fd, and as PropertiesChanged(Value).
    public var fdNotifications = 0
    public var signalNotifications = 0
    /// Links that ended other than by Device1.Disconnect.
    public var linkLosses = 0
    /// Device1.Pair calls.
    public var pairCalls = 0
    /// The Agent1 methods the stand-in called for this device, in order ("RequestPasskey",
    /// "DisplayPasskey", "Cancel"). Never the passkeys.
    public var agentCalls: [String] = []
    /// Write Commands (WriteValue type "command", AcquireWrite datagrams) to a protected
    /// characteristic on a link below its requirement: accepted, never delivered.
    public var insecureWritesDropped = 0
    /// Connects on a stored bond the device no longer has: encryption failed, the link dropped.
    public var encryptionFailures = 0
    /// AcquireNotify calls on a protected characteristic over a link below its requirement: left
    /// without a reply, as bluetoothd 5.66 does before it crashes (§9). A central must keep it 0.
    public var acquireNotifyWhileInsecure = 0

    public init() {}
}
