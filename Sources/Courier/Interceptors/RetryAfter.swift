import Foundation

/// Reads a `Retry-After` value (RFC 9110 §10.2.3): delta-seconds or an HTTP-date.
enum RetryAfter {
    /// The wait `value` asks for, measured from `now`; zero for a date in the past, `nil` when unreadable.
    static func delay(_ value: String, now: Date) -> Duration? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard let seconds = Int64(text) else { return .seconds(Int64.max) }
            return .seconds(seconds)
        }
        guard let date = httpDate(text) else { return nil }
        return .roundedSeconds(max(0, date.timeIntervalSince(now)))
    }

    /// The three date forms RFC 9110 §5.6.7 requires recipients to accept: IMF-fixdate,
    /// the obsolete RFC 850 form, and C's asctime form.
    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
