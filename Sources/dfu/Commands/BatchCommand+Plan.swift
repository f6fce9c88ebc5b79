import ArgumentParsing
import DFUCore

/// The plan side of `dfu batch`: reading PLAN, checking every row before anything runs, and
/// opening `--report FILE` against it.
extension BatchCommand {
    /// Every row made into its request (each cell checked as what it is), and a virtual device's
    /// options and files (`BatchSimDevice`), before anything runs.
    func check(_ plan: BatchPlan, defaults: BatchDefaults, adapter: String?) throws(DFUError) {
        var problems: [String] = []
        for row in plan.rows {
            do throws(BatchRowProblem) {
                _ = try row.request(defaults: defaults, adapter: adapter)
                try BatchSimDevice.check(row)
            } catch {
                problems.append(error.description)
            }
        }
        guard problems.isEmpty else {
            throw .usage("\(self.plan): \(problems.count) row\(problems.count == 1 ? "" : "s") cannot run, so none was started:\n  "
                         + problems.joined(separator: "\n  "))
        }
    }

    /// `--report FILE`, checked against PLAN and emptied (nil without it).
    func openReport() throws(DFUError) -> BatchReportFile? {
        guard let report else { return nil }
        do throws(UsageError) { return try BatchReportFile(path: report, plan: plan, force: force) } catch {
            throw .usage(error.message)
        }
    }

    func readPlan() throws(DFUError) -> BatchPlan {
        // (--discover reads no plan: PLAN is the file to flash.)
        let bytes = try FileReader.readAll(path: plan, limit: 16 * 1024 * 1024)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .usage("\(plan) is not UTF-8 text; a plan is CSV or JSON lines")
        }
        do throws(UsageError) { return try BatchPlan.parse(text, path: plan) } catch { throw .usage(error.message) }
    }
}
