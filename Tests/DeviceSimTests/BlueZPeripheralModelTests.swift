@testable import DeviceSim
import Testing
import Transport

/// The peripheral's sans-I/O parts: which central is served (`CentralTracker`), the order calls
/// are answered in (`ArrivalOrder`), the advertised name.
@Suite struct BlueZPeripheralModelTests {
    static let first = "/org/bluez/hci0/dev_11_22_33_44_55_66"
    static let second = "/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF"

    @Test func theDeviceIsConnectedAtTheFirstWriteWithTheMTUItCarries() {
        var tracker = CentralTracker()
        let up = tracker.linkUp(Self.first)
        tracker.note(Self.first, mtu: 247)
        let firstWrite = tracker.write(from: Self.first, mtu: nil)
        let secondWrite = tracker.write(from: Self.first, mtu: 247)
        let down = tracker.linkDown(Self.first)
        #expect(up)
        #expect(firstWrite == .deliver(connectWith: 242))
        #expect(secondWrite == .deliver(connectWith: nil))
        #expect(down == true)
        #expect(tracker.current == nil)
    }

    @Test func aWriteBeforeTheConnectedSignalStartsTheLink() {
        var tracker = CentralTracker()
        let write = tracker.write(from: Self.first, mtu: 517)
        // The late signal changes nothing.
        let lateSignal = tracker.linkUp(Self.first)
        #expect(write == .deliver(connectWith: 510))
        #expect(!lateSignal)
        #expect(tracker.current?.deviceConnected == true)
    }

    @Test func aSecondCentralIsIgnoredUntilTheFirstIsGone() {
        var tracker = CentralTracker()
        tracker.linkUp(Self.first)
        let secondUp = tracker.linkUp(Self.second)
        let secondWrite = tracker.write(from: Self.second, mtu: 247)
        let secondDown = tracker.linkDown(Self.second)
        let firstDown = tracker.linkDown(Self.first)
        let secondUpAgain = tracker.linkUp(Self.second)
        #expect(!secondUp)
        #expect(secondWrite == .ignore)
        #expect(secondDown == nil)
        #expect(firstDown == false, "the device was never told it was connected")
        #expect(secondUpAgain)
    }

    /// After the device drops the link, the central's writes still in flight do not reach it, and
    /// the link's end is not reported to it twice; the next link is a new generation.
    @Test func aDroppedLinkTakesNoMoreWritesAndItsEndIsNotReportedAgain() throws {
        var tracker = CentralTracker()
        _ = tracker.write(from: Self.first, mtu: 247)
        let generation = try #require(tracker.current?.generation)
        let dropped = tracker.drop()
        let droppedAgain = tracker.drop()
        let lateWrite = tracker.write(from: Self.first, mtu: 247)
        let down = tracker.linkDown(Self.first)
        let up = tracker.linkUp(Self.first)
        #expect(dropped?.path == Self.first)
        #expect(droppedAgain == nil)
        #expect(lateWrite == .ignore)
        #expect(down == false)
        #expect(up)
        #expect(try #require(tracker.current?.generation) > generation)
    }

    /// MTU − 5, what bluetoothd's Multiple Handle Value Notification carries, at most 510.
    @Test(arguments: [(nil, 18), (23, 18), (185, 180), (498, 493), (515, 510), (517, 510), (10, 18)] as [(Int?, Int)])
    func notificationSizeFitsAMultipleHandleNotificationCappedAt510(mtu: Int?, size: Int) {
        #expect(CentralTracker.notificationSize(mtu: mtu) == size)
    }

    @Test func anMTUIsNewsOncePerLinkAndAgainWhenItChanges() {
        var tracker = CentralTracker()
        let first = tracker.note(Self.first, mtu: 498)
        let same = tracker.note(Self.first, mtu: 498)
        let none = tracker.note(Self.first, mtu: nil)
        let changed = tracker.note(Self.first, mtu: 247)
        let otherCentral = tracker.note(Self.second, mtu: 517)
        #expect([first, same, none, changed, otherCentral] == [498, nil, nil, 247, nil])
    }

    @Test func callsAreAnsweredInArrivalOrder() {
        var order = ArrivalOrder<String>()
        #expect(order.isTurn(1))
        #expect(!order.isTurn(3))
        order.wait(3, "third")
        #expect(order.isWaiting(3))
        #expect(!order.isTurn(2))
        order.wait(2, "second")
        let afterFirst = order.finished(1)
        let afterSecond = order.finished(2)
        let afterThird = order.finished(3)
        #expect(afterFirst == "second")
        #expect(afterSecond == "third")
        #expect(afterThird == nil)
        #expect(order.isTurn(4))
        // Calls built by hand (0) never wait and change nothing.
        let byHand = order.finished(0)
        #expect(order.isTurn(0) && byHand == nil && order.next == 4)
    }

    @Test(arguments: [("C3:11:22:33:EE:0F", "dfu-sim-EE0F"), ("sensor-12ab", "dfu-sim-12AB"), ("x", "dfu-sim-X")])
    func theDefaultNameEndsWithTheIdentity(identity: String, name: String) {
        #expect(PeripheralAdvertisement.defaultName(for: PeerIdentity(identity)) == name)
    }

    @Test func namesLongerThanAScanResponseAreRefused() {
        #expect(PeripheralAdvertisement.problem(with: String(repeating: "n", count: 29)) == nil)
        #expect(PeripheralAdvertisement.problem(with: String(repeating: "n", count: 30))?.contains("at most 29") == true)
        #expect(PeripheralAdvertisement.problem(with: "") != nil)
    }

    @Test func centralAddressesComeFromDevicePaths() {
        #expect(BlueZPeripheralEvent.central(at: Self.second) == PeerIdentity("AA:BB:CC:DD:EE:FF"))
        #expect(BlueZPeripheralEvent.centralConnected(PeerIdentity("AA:BB:CC:DD:EE:FF")).description
            == "central …:EE:FF connected")
        #expect(BlueZPeripheralEvent.centralConnected(PeerIdentity("AA:BB:CC:DD:EE:FF")).description(fullAddresses: true)
            == "central AA:BB:CC:DD:EE:FF connected")
    }
}
