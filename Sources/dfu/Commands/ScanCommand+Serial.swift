import ArgumentParsing
import DFUCore
import ExitCodes
import Foundation
import SerialTransport

/// `dfu scan --serial`: the serial ports and what answers on each (`SerialPortScan`), as a table
/// and a summary line, or with `--json` one `port` line per port and the `result` line. The ports
/// are all asked before anything is printed (a second or three), so rows come in path order.
extension ScanCommand {
    func runSerial(_ console: Console) async throws(DFUError) -> ExitStatus {
        let options = serialPorts
        let settings: SerialPortSettings
        do throws(UsageError) {
            settings = try options.settings()
        } catch {
            throw .usage(error.message)
        }
        let console = console.verbose(common.verbose && !common.json)
        let scan = SerialPortScan(
            inventory: SerialPortScan.inventory(environment: ProcessInfo.processInfo.environment), settings: settings,
            prober: options.noProbe ? nil : SerialProber(timeout: options.probeDuration),
            log: { console.log($0) })
        let findings = await scan.run()
        if common.json {
            for finding in findings { console.out(SerialScanOutput.json(finding).encoded) }
            console.out(SerialScanOutput.jsonResult(count: findings.count).encoded)
            return .success
        }
        if !findings.isEmpty {
            for line in SerialScanOutput.table(findings, probed: !options.noProbe) { console.out(line) }
        }
        console.out(SerialScanOutput.summary(findings, probed: !options.noProbe, baud: settings.baud))
        return .success
    }
}
