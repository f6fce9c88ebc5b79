import DFUCore

/// Decides which of the engine's progress events are shown. The engine reports every acknowledged
/// chunk (hundreds a second on a fast link); a terminal redraw or a JSON line for each would cost
/// more than the upload and bury everything else.
///
/// A progress is shown when it is the first (if `showsFirst`), when its whole percent has entered a
/// new `percentStep` bucket, when `interval` has passed since the last one shown, or when it
/// completes the transfer. A transfer that starts over (the device rebooted and lost the upload)
/// moves to a lower bucket and so is shown at once. The caller passes `now`; nothing here reads a clock.
struct ProgressThrottle: Sendable {
    /// Show at least this far apart in time; nil: time alone never shows one.
    var interval: Duration?
    /// Show when `percent / percentStep` changes; nil: percent alone never shows one.
    var percentStep: Int?
    var showsFirst: Bool

    private var lastShown: (instant: ContinuousClock.Instant, bucket: Int?, complete: Bool)?

    init(interval: Duration?, percentStep: Int?, showsFirst: Bool) {
        self.interval = interval
        self.percentStep = percentStep.map { max($0, 1) }
        self.showsFirst = showsFirst
    }

    /// A terminal bar: at most ten redraws a second, whatever the percent does.
    static var terminalBar: ProgressThrottle {
        ProgressThrottle(interval: .milliseconds(100), percentStep: nil, showsFirst: true)
    }

    /// Plain lines for a log: one per 10 %, none at the start.
    static var plainLines: ProgressThrottle {
        ProgressThrottle(interval: nil, percentStep: 10, showsFirst: false)
    }

    /// JSON lines: every 1 % or every 250 ms, whichever comes first.
    static var jsonLines: ProgressThrottle {
        ProgressThrottle(interval: .milliseconds(250), percentStep: 1, showsFirst: true)
    }

    /// Whether to show `progress`; when true it counts as shown from `now` on.
    mutating func shouldShow(_ progress: TransferProgress, at now: ContinuousClock.Instant) -> Bool {
        let (complete, bucket) = classify(progress)
        let show: Bool
        if let last = lastShown {
            if complete {
                show = !last.complete  // the end once, not again for a duplicate final reply
            } else if let bucket, bucket != last.bucket {
                show = true
            } else if let interval {
                show = now - last.instant >= interval
            } else {
                show = false
            }
        } else {
            show = showsFirst || complete || (bucket ?? 0) > 0
        }
        if show || lastShown == nil {
            // Without `showsFirst` the first event still sets the starting bucket (shown or not), so
            // plain lines begin at the first 10 % boundary crossed, not at whatever percent came first.
            lastShown = (now, bucket, complete)
        }
        return show
    }

    /// Records `progress` as shown at `now` although `shouldShow` held it back: the caller wrote it
    /// anyway (the last one before another event), so the next interval starts here.
    mutating func markShown(_ progress: TransferProgress, at now: ContinuousClock.Instant) {
        let (complete, bucket) = classify(progress)
        lastShown = (now, bucket, complete)
    }

    private func classify(_ progress: TransferProgress) -> (complete: Bool, bucket: Int?) {
        let complete = progress.total > 0 && progress.acknowledged >= progress.total
        let bucket = percentStep.map { HumanUnits.percent(progress.acknowledged, of: progress.total) / $0 }
        return (complete, bucket)
    }
}
