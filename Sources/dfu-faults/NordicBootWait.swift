import DeviceSim
import Transport

/// The virtual nRF52 once it has finished starting: an update ends as the bootloader resets into
/// the new application, whose boot the model times, so a run is judged on what the device starts.
enum NordicBootWait {
    static func settled(clock: LinkClock, _ snapshot: () async -> NordicVirtualDevice) async -> NordicVirtualDevice {
        for _ in 0 ..< 100 {
            let device = await snapshot()
            guard case .booting(let until, _) = device.mode else { return device }
            // Past the boot's end already: the device's timer has yet to run, so give it a moment.
            let wake = max(until, clock.now).advanced(by: .milliseconds(10))
            try? await clock.sleep(until: wake)
        }
        return await snapshot()
    }

    /// What a run is judged on: the settled device; a bootloader that refused the init packet waits
    /// in DFU mode until its inactivity timeout (120 s), so a power cycle shows sooner what it
    /// starts: the application it kept.
    static func final(clock: LinkClock, expectation: Expectation, _ snapshot: () async -> NordicVirtualDevice,
                      powerCycle: () async -> Void) async -> NordicVirtualDevice {
        let device = await settled(clock: clock, snapshot)
        guard case .refusedBeforeTransfer = expectation, case .bootloader = device.mode else { return device }
        await powerCycle()
        return await settled(clock: clock, snapshot)
    }
}
