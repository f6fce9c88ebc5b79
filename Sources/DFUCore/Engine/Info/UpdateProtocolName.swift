/// The update protocols dfu speaks, as `dfu info`, `--protocol` and the JSON name them.
public enum UpdateProtocolName: String, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    /// MCUmgr SMP with MCUboot images.
    case smp
    /// Nordic Secure DFU (nRF5 SDK bootloaders) with Nordic DFU packages.
    case nordic

    public var description: String {
        switch self {
        case .smp: return "SMP (MCUmgr)"
        case .nordic: return "Nordic Secure DFU"
        }
    }

    /// The update files a device of this protocol takes, for a message about the wrong one.
    public var files: String {
        switch self {
        case .smp: return "a signed MCUboot image or an nRF Connect SDK dfu_application.zip"
        case .nordic: return "a Nordic DFU package (nrfutil pkg generate)"
        }
    }
}
