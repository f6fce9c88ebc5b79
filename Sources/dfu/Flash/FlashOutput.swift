/// How one update is shown: the caller's own (its `--json`, `--verbose`, `--full-addresses`), never
/// part of the request and never journaled, so a resumed run shows itself as its own command asks.
struct FlashOutput: Sendable {
    var json = false
    var verbose = false
    /// Bluetooth addresses in full instead of shortened (`…:EE:FF`).
    var fullAddresses = false
}
