/// Seconds since 1970 as `2024-12-02 00:00:00 UTC`, without Foundation or the local time zone: a zip's
/// build time reads the same on every machine.
enum UTCTimestamp {
    static func text(_ seconds: Int) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let daySeconds = seconds - days * 86_400
        let (year, month, day) = civilDate(daysSince1970: days)
        return "\(year)-\(two(month))-\(two(day)) \(two(daySeconds / 3600)):\(two(daySeconds / 60 % 60)):\(two(daySeconds % 60)) UTC"
    }

    /// The proleptic Gregorian date of a day count, by 400-year eras of 146 097 days starting on 1 March.
    private static func civilDate(daysSince1970 days: Int) -> (Int, Int, Int) {
        let shifted = days + 719_468  // days from 0000-03-01 to 1970-01-01
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
