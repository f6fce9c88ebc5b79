/// The median the reports print (dfu-bench and dfu-faults alike): the middle value, or the mean of
/// the two middle values; nil for none.
public enum Median {
    public static func of(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
