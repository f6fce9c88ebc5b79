/// What a process-death scenario kills, and how the update is then finished: the `dfu` binary
/// runs as a child process against a device model served in the campaign (`--link process`).
enum ProcessDeath: Sendable, Equatable {
    /// How a killed `dfu flash` is taken up again.
    enum Finish: Sendable, Equatable {
        /// The same `dfu flash` command again.
        case rerun
        /// `dfu resume`, from the journal the killed run kept.
        case resume
    }

    /// What else befalls the update of a killed `dfu flash`, beside its one kill.
    enum Also: Sendable, Equatable {
        case nothing
        /// The first command that takes the update up (`dfu resume`) is killed too, at a point of
        /// its own; the next one must finish.
        case finisherKilled
        /// The device resets mid-transfer (`reboot@random`) and `dfu` is killed at that moment, as
        /// when one power cut takes down both: the device loses its upload session.
        case deviceResetsAtKill
        /// The command that takes the update up meets a device reset later in the transfer
        /// (`reboot@N%`, past what the killed run sent): the session it carried on is lost.
        case deviceResetsInFinish
        /// Nothing reaches the device or leaves it for a while from a random point of the transfer
        /// (`outage@random:D`), and `dfu` is killed as the outage begins: the command that takes
        /// the update up meets a device that does not answer yet, and must wait for it.
        case outageAtKill
        /// The device drops the link at a random point of the transfer (`disconnect@random`) and
        /// `dfu` is killed as it does: the command that takes the update up meets a device no
        /// longer connected, which kept its upload session.
        case linkDropAtKill
        /// Nordic over a serial line: `dfu` is killed as the bootloader gets the last Execute,
        /// which it acts on by starting the new application; the board is then put back in DFU
        /// mode (`NordicDFUMode`), as an operator must for a serial-only nRF52, before the command
        /// that finishes.
        case killedAtLastExecute
        /// Nordic: the device loses power at the moment `dfu` is killed, at a random point of the
        /// firmware (one power cut takes both down, as on a bench with one supply): the bootloader's
        /// RAM progress is gone and the board starts its old application; a serial-only board is
        /// then put back in DFU mode (`NordicDFUMode`) before the command that finishes.
        case powerCutAtKill
    }

    /// Where the children reach the device.
    enum Over: Sendable, Equatable {
        /// Without BlueZ: an SMP device over UDP, a Nordic bootloader over a serial line.
        case wire
        /// An SMP device on a serial line (a pseudo-terminal), as `dfu sim --serve serial:` serves it.
        case serial
        /// The same on a USB CDC ACM port: the port vanishes while the device resets or drops the line.
        case usbSerial
        /// Behind the BlueZ stand-in on a private bus, by its address.
        case bluez
    }

    /// One `dfu flash`, killed at a `KillPoint` drawn from the run's seed, then finished.
    case flash(Finish, also: Also = .nothing, over: Over = .wire)
    /// One `dfu batch` over `devices` devices, `parallel` at a time, killed once at least one
    /// device is done and another is mid-transfer (the rest not started), then run again;
    /// `killedAgain`: that rerun is killed too, and a third must finish.
    case batch(devices: Int, parallel: Int, killedAgain: Bool = false)
}
