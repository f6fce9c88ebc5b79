@testable import DFUCore
import Testing

/// Over a connectionless link (UDP, a serial line) connected means the device answered its first
/// request, which is sent again while nothing comes back. The waits grow, but only to 2 s, so a
/// device back from an outage is heard within 2 s of its return.
@Suite struct FirstAnswerWaitTests {
    @Test func theWaitsDoubleFromOneSecondToTwoAndStayThere() {
        let waits = (0..<8).map { SMPDeviceStateReader.firstAnswerWait(try: $0) }
        #expect(waits == [.seconds(1)] + Array(repeating: .seconds(2), count: 7))
    }

    /// A device out of reach for 3 s from the first try is heard by the try sent at 3 s (tries at
    /// 0, 1, 3, 5 … s), not the one at 7 s as when every wait doubled.
    @Test func aDeviceBackAfterThreeSecondsIsAskedAgainWithinTwo() {
        var sent: [Duration] = []
        var at = Duration.zero
        for index in 0..<6 {
            sent.append(at)
            at += SMPDeviceStateReader.firstAnswerWait(try: index)
        }
        let heardBy = sent.first { $0 >= .seconds(3) }
        #expect(heardBy == .seconds(3))
        #expect(zip(sent, sent.dropFirst()).allSatisfy { $1 - $0 <= .seconds(2) })
    }
}
