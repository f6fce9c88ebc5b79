/// What the report says once about the process-death rows.
enum ProcessDeathReport {
    static let headerLine = "kill-*, batch-kill: the dfu binary run as a child process (over UDP to the device on 127.0.0.1; "
        + "bluez-*: the BlueZ stand-in on a private bus; nordic-*: a pseudo-terminal), killed with SIGKILL, then finished by "
        + "the same command or dfu resume; a batch-kill run is one batch of 6 devices (nordic-batch-kill: 5); their model time "
        + "includes the children's real-time start-up and waits, counted 20x"
}
