/// Transfer progress as the device acknowledged it.
struct TransferCount: Sendable, Equatable {
    var acknowledged: Int
    var total: Int
}
