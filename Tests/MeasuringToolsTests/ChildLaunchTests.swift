import Foundation
import Harness
import Synchronization
import Testing

/// The one way dfu-bench and dfu-faults start a child: stdout on a pipe, stderr kept apart and read
/// after the exit, the environment laid over this process's, the exit seen once the child is reaped.
@Suite struct ChildLaunchTests {
    @Test func outputAndErrorsComeBackApartWithTheGivenEnvironmentAndDirectory() throws {
        let child = try ChildLaunch("/bin/sh", ["-c", "echo out $DFU_CHILD_TEST; pwd; echo err >&2; exit 3"],
                                    environment: ["DFU_CHILD_TEST": "given"], directory: "/tmp")
        let output = String(decoding: child.output.readDataToEndOfFile(), as: UTF8.self)
        child.process.waitUntilExit()
        #expect(output == "out given\n/tmp\n")
        #expect(child.errors() == "err\n")
        #expect(child.process.terminationStatus == 3)
    }

    @Test func theChildReadsNoInputAndItsExitIsReported() async throws {
        let exited = Mutex(false)
        // `cat` ends at once on /dev/null; it would wait forever on an inherited terminal or pipe.
        let child = try ChildLaunch("/bin/cat", [], onExit: { exited.withLock { $0 = true } })
        #expect(child.output.readDataToEndOfFile().isEmpty)
        child.process.waitUntilExit()
        for _ in 0 ..< 200 where !exited.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(exited.withLock { $0 })
    }

    @Test func aProgramThatCannotStartIsAFailureInWords() {
        #expect(throws: ChildLaunch.Failure.self) {
            _ = try ChildLaunch("/nonexistent/dfu-child-test", [])
        }
        do {
            _ = try ChildLaunch("/nonexistent/dfu-child-test", [])
        } catch {
            #expect(error.description.hasPrefix("cannot start /nonexistent/dfu-child-test"))
        }
    }
}
