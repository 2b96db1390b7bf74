import Foundation

/// ISO-8601 text for archive dates (seconds since 2001-01-01 00:00:00 UTC), computed
/// with the property-list calendar arithmetic so it depends on no formatter, locale or
/// calendar: what ``KeyedArchiveView/render(options:)`` and the command-line tool print.
///
/// ```swift
/// ArchiveDateText.iso8601(sinceReferenceDate: 0)   // "2001-01-01T00:00:00Z"
/// ```
package enum ArchiveDateText {
    /// `2021-03-04T05:06:07Z`, with a fraction (to the microsecond, trailing zeros
    /// dropped) when there is one; `nil` when the time is not finite or falls outside
    /// the years 0001–9999.
    package static func iso8601(sinceReferenceDate seconds: Double) -> String? {
        // Counted from 1970 (as Unix time), so that fractions round as they always have.
        let unix = seconds + PropertyListValue.referenceDateOffset
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
        let (year, month, day) = XMLPlistCivilDate.date(daysSinceReferenceDate: days - XMLPlistCivilDate.referenceDayOffset)
        guard year >= 1, year <= 9999 else { return nil }
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
        text += "T" + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if micro > 0 {
            let fraction = pad(micro, 6)
            text += "." + String(fraction.reversed().drop(while: { $0 == "0" }).reversed())
        }
        return text + "Z"
    }

    private static func pad(_ number: Int64, _ width: Int) -> String {
        let text = String(number)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}

extension Date {
    /// The date `seconds` after 2001-01-01 00:00:00 UTC, or `nil` when `seconds` is NaN or
    /// infinite: such a `Date` is no point in time, and Foundation traps when it prints one.
    /// Every reader in the package makes archive dates through this.
    init?(finiteSecondsSinceReferenceDate seconds: Double) {
        guard seconds.isFinite else { return nil }
        self.init(timeIntervalSinceReferenceDate: seconds)
    }
}
