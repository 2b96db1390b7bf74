/// ISO-8601 text for archive dates, computed directly (proleptic Gregorian, UTC) so the
/// result does not depend on a formatter's locale, calendar or range.
enum ISODate {
    /// Seconds from 1970-01-01 to 2001-01-01, the archive's reference date.
    static let referenceOffset: Double = 978_307_200

    /// `2021-03-04T05:06:07Z`, with a fraction (to the microsecond, trailing zeros
    /// dropped) when there is one. `nil` when the time is not finite or falls outside
    /// the years 0001–9999.
    static func string(sinceReferenceDate seconds: Double) -> String? {
        let unix = seconds + referenceOffset
        // 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z.
        guard unix.isFinite, unix >= -62_135_596_800, unix < 253_402_300_800 else { return nil }
        var whole = Int64(unix.rounded(.down))
        var micro = Int64(((unix - Double(whole)) * 1_000_000).rounded())
        if micro >= 1_000_000 {
            whole += 1
            micro -= 1_000_000
        }
        let days = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let secondOfDay = whole - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
        text += "T" + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if micro > 0 {
            let fraction = pad(micro, 6)
            text += "." + String(fraction.reversed().drop(while: { $0 == "0" }).reversed())
        }
        guard year >= 1, year <= 9999 else { return nil }
        return text + "Z"
    }

    /// Year, month, day of a count of days since 1970-01-01 (Howard Hinnant's algorithm).
    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ number: Int64, _ width: Int) -> String {
        let text = String(number)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
