/// Runs the `dfu` children of one process-death run (its binary, its directory, its journal
/// directory, the hang guard), and finishes a killed `dfu flash` the way the scenario says.
struct ChildRunner {
    let files: ProcessInputs
    let home: StateHome
    let hangGuard: Duration

    /// `dfu arguments…` to its end (or the hang guard), recorded as update `index`.
    func attempt(_ arguments: [String], index: Int, child: DFUChild = DFUChild()) async throws(FaultsError)
        -> (record: AttemptRecord, ended: DFUChild.Ended) {
        let ended = try await child.run(files.dfu, arguments, environment: home.environment, directory: files.directory,
                                        hangGuard: hangGuard)
        return (ChildAttempt.record(ended, index: index), ended)
    }

    /// The first `dfu flash` (`flash` its arguments), killed by `killSwitch`, then finished as
    /// `finish` says: the attempts in order, and what stopped the campaign's own part, if anything
    /// (the run is then not judged).
    func killThenFinish(_ flash: [String], killSwitch: KillSwitch, finish: ProcessDeath.Finish,
                        expectation: Expectation) async -> (attempts: [AttemptRecord], failure: FaultsError?) {
        var attempts: [AttemptRecord] = []
        do throws(FaultsError) {
            let first = DFUChild()
            killSwitch.aim(at: first)
            let killed = try await attempt(flash, index: 1, child: first)
            killSwitch.disarm()
            attempts.append(killed.record)
            if killed.record.killed {
                attempts += try await self.finish(finish, flash: flash, expectation: expectation)
            }
            return (attempts, nil)
        } catch {
            return (attempts, error)
        }
    }

    /// After the killed first `dfu flash` (`flash` its arguments): the same command again or
    /// `dfu resume --json`, and once more after an exit 6. The killed run's journal was written
    /// before its first byte left, so a `dfu resume` that finds nothing to resume fails the run.
    private func finish(_ finish: ProcessDeath.Finish, flash: [String],
                        expectation: Expectation) async throws(FaultsError) -> [AttemptRecord] {
        let again = finish == .rerun ? flash : ["resume", "--json"]
        let second = try await attempt(again, index: 2).record
        if !second.hung, expectation.rerunsAfter(second.exitStatus) {
            return [second, try await attempt(again, index: 3).record]
        }
        return [second]
    }
}
