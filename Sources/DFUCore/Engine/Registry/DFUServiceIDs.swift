import Transport

/// The advertised services that tell which update protocol a device offers, for finding devices
/// before connecting (`dfu scan`, a BlueZ connector's discovery filter). Each protocol names its
/// own beside its registry entry (`DFUServiceIDs.smp`, `.nordicSecureDFU`); after connecting the
/// engine checks the protocol's whole layout.
public enum DFUServiceIDs {
    /// Every service dfu can update a device through, in the registry's order.
    public static var updatable: [ServiceID] { ProtocolRegistry.advertisedServices }
}
