import ArgumentParsing
import DFUCore

/// What every everyday SMP command (`dfu image …`, `dfu reset`, `dfu echo`) takes besides its own
/// arguments, checked the same way: `--connect-timeout`, `--json` (one result object) and
/// `--verbose` with the command's own options, then `--device` with the adapter flags and the
/// pairing options under their own titles. A command declares it after its own options, which is
/// where help lists these (`dfu info` takes the same, with `--protocol` among them).
struct SMPOperationOptions: ParsableArguments {
    var connect = ConnectTimeoutOption()

    var common = CommonOptions(json: .result)

    @OptionGroup(title: "DEVICE OPTIONS")
    var target = DeviceOptions()

    @OptionGroup(title: "PAIRING OPTIONS")
    var security = PairingOptions()

    init() {}

    /// Called from the command's `validate()`, before its own checks.
    func validate() throws(UsageError) {
        try target.validate()
        try security.validate(for: try target.spec)
        try connect.validate()
    }

    /// The run, with the request deadlines of an update and `--connect-timeout`.
    var run: SMPOperationRun {
        var deadlines = UpdateOptions.Deadlines()
        deadlines.connect = connect.duration
        return SMPOperationRun(target: target, security: security, deadlines: deadlines, common: common)
    }
}
