/// What the exchange targets (SMPUploadExchange, NordicTransferExchange) share: a protocol core on a
/// virtual clock, one move of the device or the link per input byte; when the input ends, honest
/// moves or silence (as the input chose) until the core ends, within a bound. Generic over the
/// instant, because Support is compiled into every target and imports no module of the package.
protocol Exchange {
    associatedtype Instant: InstantProtocol where Instant.Duration == Duration

    /// The virtual clock; only the moves advance it.
    var now: Instant { get set }
    /// The core's next deadline, if it has one.
    var nextDeadline: Instant? { get }
    /// The core ended (completed or failed).
    var finished: Bool { get set }
    /// After the input, the device answers honestly; else it falls silent.
    var honestTail: Bool { get }

    /// Tells the core to begin.
    mutating func start()
    /// One move of the device or the link, its parameters read after it.
    mutating func move(_ input: inout FuzzInput)
    /// The device's or the link's next honest move.
    mutating func honestStep()
    /// Tells the core its timer went off.
    mutating func timerFired()
}

extension Exchange {
    /// The input's moves, then until the end: `honestMoves` honest moves at most, or 1,000 deadlines
    /// (every move before is an input byte, so a core that never ends is caught here).
    mutating func run(_ input: inout FuzzInput, honestMoves: Int, what: String) {
        start()
        while !finished && !input.isEmpty { move(&input) }
        let limit = honestTail ? honestMoves : 1_000
        var moves = 0
        while !finished {
            moves += 1
            require(moves <= limit, "\(what) did not end \(limit) moves after the input")
            if honestTail { honestStep() } else { silence() }
        }
    }

    /// Silence: the clock jumps to the core's deadline (a second on when it has none).
    mutating func silence() {
        now = max(now, nextDeadline ?? now.advanced(by: .seconds(1)))
        timerFired()
    }

    /// Time passes, then the timer goes off (early or not).
    mutating func wait(_ duration: Duration) {
        now = now.advanced(by: duration)
        timerFired()
    }

    /// The core's end; it has only one.
    mutating func end() {
        require(!finished, "a second end")
        finished = true
    }
}
