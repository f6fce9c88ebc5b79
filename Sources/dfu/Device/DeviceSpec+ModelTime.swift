import DeviceSim

extension DeviceSpec {
    /// The scale of real time a virtual device's model runs at when the run's times are the
    /// model's (`sim:timescale=0.1`: stage durations, upload times and rates, as `DeviceTarget`
    /// sets its clock); nil when they are real time (any other device, no time scale, or
    /// `timescale=0`, which runs unpaced and measures in real time).
    var modelTimeScale: Double? {
        guard case .simulator(let options) = self,
              let parsed = try? SimOptions.parse(options.isEmpty ? "sim" : "sim:" + options)
        else { return nil }
        return parsed.timeScale == 1 || parsed.timeScale == 0 ? nil : parsed.timeScale
    }
}
