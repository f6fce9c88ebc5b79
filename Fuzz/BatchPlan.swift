// A `dfu batch` plan (BatchPlan.parse: CSV with a header row, or JSON lines; CSVTable; each row's
// device, paths and cells), then each row made into its request (BatchRow.request) as the batch
// does before anything runs. Any text gives a plan or a usage error, and each row a request or the
// problem with its cell. Key files named by `sim:` rows are not read (BatchSimDevice.check): the
// fuzzer would pick the files.
// A few rows reach every check: shorter inputs, more runs.
// libFuzzer options: -max_len=1024
import DFUCore
@testable import dfu

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBatchPlan(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let options = input.byte()
    let text = String(decoding: input.rest(), as: UTF8.self)
    let plan: BatchPlan
    do {
        plan = try BatchPlan.parse(text, path: "/plans/line.csv")
    } catch {
        _ = String(describing: error)
        return 0
    }
    require(!plan.rows.isEmpty, "a plan without rows")
    var defaults = BatchDefaults()
    if options & 1 != 0 { defaults.key = "/keys/default.pem" }
    if options & 2 != 0 { defaults.minBattery = 30 }
    defaults.mode = ActivationMode.allCases[Int(options >> 2) % ActivationMode.allCases.count]
    for row in plan.rows {
        do {
            _ = try row.request(defaults: defaults, adapter: options & 0x80 == 0 ? nil : "hci0")
        } catch {
            _ = String(describing: error)
        }
    }
    return 0
}
