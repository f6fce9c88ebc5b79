import Transport

extension ConnectionSummary {
    /// What `.connected` and `DeviceInfo` say about `link`: its parameters, the window, and the
    /// ceiling (the lower of the radio's modelled rate and the device's flash rate, when known).
    init(link: any Link, device: String, identity: String, window: Int, flashRate: Double?) {
        let parameters = link.parameters
        var ceiling = parameters.writeCommandCeiling
        if let radio = ceiling, let flashRate, flashRate.isFinite, flashRate > 0 { ceiling = min(radio, flashRate) }
        self.init(device: device, identity: identity, attMTU: parameters.attMTU, maxWrite: parameters.maxWriteWithoutResponse,
                  phy: parameters.phy?.rawValue, connectionInterval: parameters.connectionInterval,
                  window: window, ceiling: ceiling, security: parameters.security)
    }
}
