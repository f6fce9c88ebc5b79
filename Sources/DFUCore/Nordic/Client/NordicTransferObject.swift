/// The object being transferred: which one, and the bytes of the init packet or firmware it
/// covers. Data object `index` spans `index × maxSize` up to the next boundary or the end.
struct NordicTransferObject: Sendable, Hashable, CustomStringConvertible {
    let type: NordicObjectType
    /// 0 for the command object.
    let index: Int
    let start: Int
    let end: Int

    var size: Int { end - start }

    static func command(length: Int) -> NordicTransferObject {
        NordicTransferObject(type: .command, index: 0, start: 0, end: length)
    }

    static func data(_ index: Int, maxSize: Int, imageLength: Int) -> NordicTransferObject {
        let start = index * maxSize
        return NordicTransferObject(type: .data, index: index, start: start, end: min(start + maxSize, imageLength))
    }

    var budgetKey: NordicRetryBudget.Key { type == .command ? .command : .data(index) }

    var description: String { type == .command ? "the command object" : "data object \(index) (bytes \(start)..<\(end))" }
}
