import DFUCore

/// How one check of an MCUboot image reads in `dfu verify`'s table and in its JSON, for single
/// images and for the images of an NCS zip alike.
extension VerificationReport.Check {
    var tableText: String {
        switch self {
        case .passed: return "ok"
        case .failed: return "FAILED"
        case .notChecked(let reason): return "not checked (\(reason))"
        case .notSigned: return "not signed"
        }
    }

    var jsonName: String {
        switch self {
        case .passed: return "passed"
        case .failed: return "failed"
        case .notChecked: return "not-checked"
        case .notSigned: return "not-signed"
        }
    }
}
