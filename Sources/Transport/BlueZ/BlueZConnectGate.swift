/// One connection set up at a time on an adapter, for callers that connect to several devices at
/// once (`dfu batch`): many controllers refuse a second LE Create Connection while one is pending
/// (bluez#631, bleak#1036), which BlueZ reports as a failed or aborted Connect. Connectors given the
/// same gate take turns from `Device1.Connect` until the link is up or has failed; transfers over
/// links already up go on in parallel.
public final class BlueZConnectGate: Sendable {
    let gate = BlueZSerialGate()

    public init() {}
}
