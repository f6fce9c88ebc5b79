import DeviceSim

/// How a Nordic scenario run (in memory, over BlueZ or a serial line) is judged once the device has
/// settled: the scenario's expectation over the update's attempts, the invariants from the device
/// model, and a power cycle that was meant to fire and did not (the run then proves nothing).
struct NordicRunJudgement {
    let scenario: Scenario
    let inputs: NordicInputs
    let previousVersion: UInt32

    func record(run: Int, seed: UInt64, device text: String, drawn: [String], attempts: [AttemptRecord], bootsAfterFirst: Int,
                final: NordicVirtualDevice, powerCycleMissed: Bool, uploadedBytes: Int, modelSeconds: Double,
                wallSeconds: Double) -> RunRecord {
        let device = DeviceVerdict(nordic: final, newVersion: inputs.version, previousVersion: previousVersion)
        var outcome = scenario.expectation.judge(attempts, bootsAfterFirst: bootsAfterFirst, device: device)
        let facts = DeviceFacts(nordic: final, newVersion: inputs.version, previousVersion: previousVersion)
        let violations = InvariantCheck.violations(attempts, device: facts, documented: scenario.expectation.documentedFailures)
        if powerCycleMissed, outcome.unexpectedReason == nil {
            outcome = .unexpected("the power cycle never fired (the transfer did not reach its byte)")
        }
        return RunRecord(run: run, seed: seed, device: text, faults: drawn.isEmpty ? "none" : drawn.joined(separator: "+"),
                         attempts: attempts, uploadedBytes: uploadedBytes, imageBytes: inputs.initPacketBytes + inputs.firmwareBytes,
                         modelSeconds: modelSeconds, wallSeconds: wallSeconds, outcome: outcome, violations: violations)
    }
}
