import BlueZTransport
import Synchronization
import Transport

/// Prints what `dfu scan` finds, in one of three shapes:
///
/// - `.live` (stdout is a terminal): each device as soon as it is first heard, in fixed columns,
///   so a person sees the list grow and can stop it early;
/// - `.sorted` (a pipe or a file): the table once the scan ended, strongest first with the latest
///   RSSI, columns sized to their contents;
/// - `.jsonLines`: one `device` object per device as it is first heard (a script can act at once),
///   then the `result` line.
///
/// `found` may be called from the scan's own task while the command awaits the scan: the state is
/// behind a lock.
final class ScanListing: Sendable {
    enum Style: Sendable {
        case live
        case sorted
        case jsonLines
    }

    private let style: Style
    private let console: Console
    /// How many devices were printed as found (live: the header goes before the first).
    private let printed = Mutex(0)

    init(style: Style, console: Console) {
        self.style = style
        self.console = console
    }

    /// A device heard for the first time.
    func found(_ device: BlueZDiscoveredDevice) {
        switch style {
        case .sorted:
            return
        case .jsonLines:
            printed.withLock { count in
                count += 1
                console.out(ScanOutput.json(device).encoded)
            }
        case .live:
            printed.withLock { count in
                if count == 0 { console.out(ScanOutput.header(nameWidth: ScanOutput.liveNameWidth)) }
                count += 1
                console.out(ScanOutput.row(device, nameWidth: ScanOutput.liveNameWidth))
            }
        }
    }

    /// The scan ended with `devices` (strongest first): the table when sorted, then the summary.
    func finish(_ devices: [BlueZDiscoveredDevice], adapter: String, summary: ScanOutput.Summary) {
        switch style {
        case .jsonLines:
            console.out(ScanOutput.jsonResult(adapter: adapter, count: devices.count, error: nil).encoded)
        case .sorted:
            if !devices.isEmpty {
                let width = ScanOutput.nameWidth(for: devices)
                console.out(ScanOutput.header(nameWidth: width))
                for device in devices { console.out(ScanOutput.row(device, nameWidth: width)) }
            }
            console.out(summary.line(devices))
        case .live:
            console.out(summary.line(devices))
        }
    }

    /// BlueZ could not be used: with `--json` the result line carries the error (exit 5) and
    /// nothing goes to stderr; as text the caller throws it, and the CLI prints it on stderr.
    func failed(_ error: String, adapter: String?) {
        guard case .jsonLines = style else { return }
        let count = printed.withLock { $0 }
        console.out(ScanOutput.jsonResult(adapter: adapter, count: count, error: error).encoded)
    }
}
