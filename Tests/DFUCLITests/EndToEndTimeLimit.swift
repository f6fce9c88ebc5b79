import Testing

extension Trait where Self == TimeLimitTrait {
    /// The time limit of an end-to-end suite: a hang guard, not a speed check. Each `dfu` run is
    /// killed after its own timeout (`DFURun`), but a synchronous test waits for its child holding
    /// one of the cooperative pool's threads (one per core), so on a loaded 2-core machine a test
    /// can wait minutes for a thread before it runs: 2 minutes failed seven tests that each take
    /// seconds, beside two fuzzers (the Makefile runs this batch apart for the same reason).
    static var endToEnd: Self { .timeLimit(.minutes(5)) }
}
