@testable import dfu_faults
import Foundation
import Testing

/// The child a process-death run kills: a kill reaches it only once it runs, which is why a
/// `KillSchedule` is aimed from the child's start (bytes a killed `dfu` left on the way can reach
/// the next one's point before that one exists).
@Suite(.timeLimit(.minutes(1))) struct DFUChildTests {
    private let directory = FileManager.default.temporaryDirectory.path

    @Test func aKillBeforeTheChildRunsHitsNothing() {
        #expect(!DFUChild().kill(), "no process yet: the kill is not sent, and must not be counted as sent")
    }

    @Test func aScheduleAimedAtTheStartKillsTheChildWhenItsPointWasAlreadyPassed() async throws {
        let schedule = KillSchedule([.transfer(share: 0.5)], totalBytes: 1000)
        let child = DFUChild()
        let ended = try await child.run("/bin/sleep", ["20"], environment: [:], directory: directory, hangGuard: .seconds(30),
                                        started: {
                                            schedule.aim(0, at: child)
                                            // A killed run's leftover bytes, taken in now, pass the point at once.
                                            schedule.sent(600)
                                        })
        #expect(schedule.hasFired(0))
        #expect(ended.killedByUs, "the kill found the running child: \(ended)")
        #expect(ended.signal == SIGKILL)
        #expect(ended.wallSeconds < 10)
    }

    @Test func aChildThatEndsByItselfIsNotKilled() async throws {
        let child = DFUChild()
        let ended = try await child.run("/bin/sh", ["-c", "echo one; echo two; exit 3"], environment: [:], directory: directory,
                                        hangGuard: .seconds(30))
        #expect(ended.exitCode == 3)
        #expect(!ended.killedByUs)
        #expect(ended.lines == ["one", "two"])
        #expect(!child.kill(), "a reaped child is never signalled")
    }
}
