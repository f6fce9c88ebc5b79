import DeviceSim
import Transport

/// What every run of every scenario starts from: its `sim:` options parsed, and a memory
/// connector on a link clock at the campaign's time scale. Either failing is a set-up error named
/// after the scenario.
struct SimSetup {
    let options: SimOptions
    let clock: LinkClock
    let connector: MemoryConnector

    init(_ text: String, scenario: String, timeScale: Double) throws(FaultsError) {
        do throws(SimOptionsError) {
            options = try SimOptions.parse(text)
        } catch {
            throw .setup("scenario \(scenario): \(error)")
        }
        guard let clock = LinkClock(timeScale: timeScale) else { throw .setup("time scale \(timeScale) is not usable") }
        self.clock = clock
        connector = MemoryConnector(clock: clock)
    }

    /// A device that the options describe could not be served (a key file, a value that does not fit).
    static func serveFailed(_ scenario: String, _ error: SimOptionsError) -> FaultsError {
        .setup("scenario \(scenario): \(error)")
    }
}
