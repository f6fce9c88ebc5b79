extension Duration {
    /// The duration in seconds as a floating-point number, for rates and log lines.
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) * 1e-18
    }
}
