#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
#endif

/// Reads the dates servers send (`Expires`, `Retry-After`, `Date`, a cookie's `Expires`) by
/// RFC 6265 §5.1.1's algorithm, which accepts every form RFC 9110 §5.6.7 asks recipients to
/// (IMF-fixdate, RFC 850, asctime) and the `Wdy, DD-Mon-YYYY` form of Netscape's cookies.
///
/// Written out rather than with `DateFormatter`, which is in full Foundation only (with ICU); the
/// dates are always English and GMT, so no locale is involved.
package enum HTTPDate {
    /// The date `text` names, or `nil` when it names none.
    package static func parse(_ text: String) -> Date? {
        var time: (hour: Int, minute: Int, second: Int)?
        var day: Int?
        var month: Int?
        var year: Int?
        for token in text.split(whereSeparator: isDelimiter) {
            if time == nil, let parsed = Self.time(token) {
                time = parsed
            } else if day == nil, let parsed = leadingNumber(token, digits: 1...2) {
                day = parsed
            } else if month == nil, let parsed = Self.month(token) {
                month = parsed
            } else if year == nil, let parsed = leadingNumber(token, digits: 2...4) {
                year = parsed
            }
        }
        guard var year, let month, let day, let time else { return nil }
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard year >= 1601, (1...31).contains(day), time.hour <= 23, time.minute <= 59, time.second <= 59,
            day <= daysIn(month: month, year: year)
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        return Date(
            timeIntervalSince1970: TimeInterval(days * 86_400 + time.hour * 3600 + time.minute * 60 + time.second))
    }

    /// RFC 6265's delimiters: every character but digits, letters and `:`, among printable ASCII.
    private static func isDelimiter(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue else { return false }
        switch ascii {
        case 0x09, 0x20...0x2F, 0x3B...0x40, 0x5B...0x60, 0x7B...0x7E: return true
        default: return false
        }
    }

    /// `hh:mm:ss` with one or two digits each, and anything after.
    private static func time(_ token: Substring) -> (hour: Int, minute: Int, second: Int)? {
        let parts = token.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let hour = leadingNumber(parts[0], digits: 1...2, whole: true),
            let minute = leadingNumber(parts[1], digits: 1...2, whole: true),
            let second = leadingNumber(parts[2], digits: 1...2)
        else { return nil }
        return (hour, minute, second)
    }

    /// The number `token` starts with, of `digits` digits and no more, or `nil`; with `whole`, the
    /// token must hold nothing else.
    private static func leadingNumber(_ token: Substring, digits: ClosedRange<Int>, whole: Bool = false) -> Int? {
        let number = token.prefix { $0.isASCII && $0.isNumber }
        guard digits.contains(number.count), !whole || number.count == token.count else { return nil }
        return Int(number)
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The month a token's first three letters name, from 1.
    private static func month(_ token: Substring) -> Int? {
        guard token.count >= 3 else { return nil }
        return months.firstIndex(of: token.prefix(3).lowercased()).map { $0 + 1 }
    }

    private static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the date, in the proleptic Gregorian calendar (Howard Hinnant's
    /// days_from_civil).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
