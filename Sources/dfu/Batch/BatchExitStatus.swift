import ExitCodes

/// The one exit status of a batch, from its devices' reports: 0 when every device ended `ok`,
/// `checked` or `skipped`, else the most severe of their codes in the one documented order
/// (`ExitStatus.severityOrder`: 130, 1, 2, 3, 8, 7, 9, 4, 6, 5; `dfu batch --help`, docs/cli.md).
/// 2 says nothing was started: a row refused when its turn came (its device options or file found
/// unusable only then; `2` in its own line) counts as 3, a file or key problem, once any other
/// device ran.
enum BatchExitStatus {
    static func of(_ reports: [BatchDeviceReport]) -> ExitStatus {
        let statuses = reports.map(\.exitStatus)
        let somethingRan = statuses.contains { $0 != .usage }
        return ExitStatus.mostSevere(statuses.map { somethingRan && $0 == .usage ? .imageInvalid : $0 })
    }
}
