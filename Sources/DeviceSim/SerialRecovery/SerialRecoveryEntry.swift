/// Why MCUboot stays in its serial recovery instead of starting the application.
public enum SerialRecoveryEntry: Sendable, Hashable, CustomStringConvertible {
    /// The application's reset stored boot mode 1 (`boot_mode` in os reset), which MCUboot read
    /// and cleared (`BOOT_SERIAL_BOOT_MODE`).
    case bootMode
    /// After the recovery's reset the primary slot holds no image MCUboot validates
    /// (`BOOT_SERIAL_NO_APPLICATION`): `reason` says which check failed.
    case noValidImage(reason: String)

    public var description: String {
        switch self {
        case .bootMode: return "MCUboot read boot mode 1 (the application's reset asked for it): it enters serial recovery"
        case .noValidImage(let reason): return "MCUboot found no valid image in the primary slot (\(reason)): it stays in serial recovery"
        }
    }
}
