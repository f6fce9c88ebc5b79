/// What a `TerminalRenderer` is told about the run besides the engine's events: the user's
/// choices and the terminal it draws on.
extension TerminalRenderer {
    struct Configuration: Sendable {
        /// The image as the user named it (the file name), for "image checked: …".
        var imageName: String
        /// The battery floor the engine checks against (`--min-battery`), shown as "≥ 30 %".
        var minimumBattery: Int
        /// stdout is a terminal: draw the progress bar in place. Ask `Console.isTerminal`.
        var isTerminal: Bool
        /// `--verbose`: show the engine's log lines and the stage timings.
        var verbose: Bool
        /// `--require-newer`: the device, not dfu, judges the version.
        var requireNewer: Bool

        /// `--key` was given: a signature not checked is then not for want of a key.
        var keyGiven: Bool

        /// The engine's times are a model's, running at this scale of real time (a virtual device
        /// with `timescale=`); nil: real time. Model times are labelled so: the run's own length
        /// ("update took") is real time.
        var modelTimeScale: Double?

        init(imageName: String, minimumBattery: Int, isTerminal: Bool, verbose: Bool, requireNewer: Bool = false,
             keyGiven: Bool = false, modelTimeScale: Double? = nil) {
            self.modelTimeScale = modelTimeScale
            self.keyGiven = keyGiven
            self.imageName = imageName
            self.minimumBattery = minimumBattery
            self.isTerminal = isTerminal
            self.verbose = verbose
            self.requireNewer = requireNewer
        }
    }
}
