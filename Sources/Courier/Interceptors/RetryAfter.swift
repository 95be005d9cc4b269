#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads a `Retry-After` value (RFC 9110 §10.2.3): delta-seconds or an HTTP-date.
enum RetryAfter {
    /// The wait `value` asks for, measured from `now`; zero for a date in the past, `nil` when unreadable.
    static func delay(_ value: String, now: Date) -> Duration? {
        let text = value.trimmingWhitespace()
        if !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard let seconds = Int64(text) else { return .seconds(Int64.max) }
            return .seconds(seconds)
        }
        guard let date = HTTPDate.parse(text) else { return nil }
        return .roundedSeconds(max(0, date.timeIntervalSince(now)))
    }
}
