// The one Duration-to-seconds conversion: every target above Transport imports it, so rates, JSON
// and reports all compute seconds the same way.
extension Duration {
    /// The duration in seconds as a floating-point number, for rates and log lines.
    public var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) * 1e-18
    }
}
