/// Runs the `dfu` children of one process-death run (its binary, its directory, its journal
/// directory, the hang guard), and finishes a killed `dfu flash` the way the scenario says.
struct ChildRunner {
    let files: ProcessInputs
    let home: StateHome
    let hangGuard: Duration
    /// More for the children's environment than their journal directory (the bus of a BlueZ run).
    var environment: [String: String] = [:]

    /// `dfu arguments…` to its end (or the hang guard), recorded as update `index`; `started` as
    /// `DFUChild.run` has it.
    func attempt(_ arguments: [String], index: Int, child: DFUChild = DFUChild(),
                 started: @Sendable () -> Void = {}) async throws(FaultsError) -> (record: AttemptRecord, ended: DFUChild.Ended) {
        let ended = try await child.run(files.dfu, arguments, environment: home.environment.merging(environment) { own, _ in own },
                                        directory: files.directory, hangGuard: hangGuard, started: started)
        return (ChildAttempt.record(ended, index: index), ended)
    }

    /// The first `dfu flash` (`flash` its arguments), killed at `schedule`'s first point; then, as
    /// `finish` says, the same command again or `dfu resume --json`, each of the schedule's later
    /// points killing one in turn, and the one after the last kill run to its end (once more after
    /// an exit 6). The attempts in order, and what stopped the campaign's own part, if anything
    /// (the run is then not judged). A command that ends before its kill point ends the run there.
    /// `afterKill`: what is done to the device after each kill, before the next command.
    func killThenFinish(_ flash: [String], schedule: KillSchedule, finish: ProcessDeath.Finish, expectation: Expectation,
                        afterKill: () async -> Void = {}) async -> (attempts: [AttemptRecord], failure: FaultsError?) {
        var attempts: [AttemptRecord] = []
        let again = finish == .rerun ? flash : ["resume", "--json"]
        do throws(FaultsError) {
            for kill in schedule.points.indices {
                // Aimed once the child runs: bytes a killed one left on the way, which the device
                // takes in after it died, may reach the point first, and a kill with no process to
                // hit would be lost (the child would then run to its end unkilled).
                let child = DFUChild()
                let record = try await attempt(kill == 0 ? flash : again, index: attempts.count + 1, child: child,
                                               started: { schedule.aim(kill, at: child) }).record
                schedule.disarm()
                attempts.append(record)
                guard record.killed else { return (attempts, nil) }
                await afterKill()
            }
            attempts += try await self.finish(again, after: attempts.count, expectation: expectation)
            return (attempts, nil)
        } catch {
            return (attempts, error)
        }
    }

    /// After the killed commands (`killed` of them): `again` (the same `dfu flash`, or `dfu resume
    /// --json`), and once more after an exit 6. The killed run's journal was written before its
    /// first byte left, so a `dfu resume` that finds nothing to resume fails the run.
    private func finish(_ again: [String], after killed: Int, expectation: Expectation) async throws(FaultsError) -> [AttemptRecord] {
        let next = try await attempt(again, index: killed + 1).record
        if !next.hung, expectation.rerunsAfter(next.exitStatus) {
            return [next, try await attempt(again, index: killed + 2).record]
        }
        return [next]
    }
}
