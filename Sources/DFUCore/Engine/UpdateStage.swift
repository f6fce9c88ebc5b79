/// The stages every update goes through, in order (ARCHITECTURE.md, "The one path every update takes").
/// The engine is in exactly one of them at a time; events name the stage they belong to.
public enum UpdateStage: String, Sendable, CaseIterable {
    case verifyImage = "verify-image"
    case connect
    case readDeviceState = "read-device-state"
    case checkPreconditions = "check-preconditions"
    case transfer
    case activate
    case reconnect
    case confirmVersion = "confirm-version"
}
