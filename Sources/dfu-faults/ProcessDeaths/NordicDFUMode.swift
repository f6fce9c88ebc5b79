import DeviceSim
import Transport

/// What an operator does to a serial-only nRF52 before running dfu again: its application reads
/// nothing on the line, so a board that runs it is power-cycled with its DFU button held.
enum NordicDFUMode {
    /// Every device that runs its application (once it has finished starting), power-cycled into
    /// its bootloader, and waited for until it is there.
    static func enter(_ servers: [NordicSerialServer], clock: LinkClock) async {
        for server in servers {
            let device = await NordicBootWait.settled(clock: clock) { await server.snapshot }
            guard case .application = device.mode else { continue }
            await server.powerCycle(enterBootloader: true)
            _ = await NordicBootWait.settled(clock: clock) { await server.snapshot }
        }
    }
}
