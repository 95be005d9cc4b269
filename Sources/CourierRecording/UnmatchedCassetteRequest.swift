public import Courier

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A request a `CassetteTransport` has no episode for: the `underlying` error of the
/// `cannotConnect` `CourierError` the send throws, naming the request and the recorded requests
/// closest to it, each with why it did not answer.
///
/// ```swift
/// catch let error as CourierError {
///     if let unmatched = error.underlying as? UnmatchedCassetteRequest { print(unmatched.candidates) }
/// }
/// ```
public struct UnmatchedCassetteRequest: Error, Sendable, CustomStringConvertible {
    /// A recorded request that came close.
    public struct Candidate: Sendable, Equatable {
        /// Its position in the cassette's entries, from 0.
        public var index: Int
        /// Its method.
        public var method: String
        /// Its URL, as recorded (redacted).
        public var url: String
        /// Why it did not answer: `URL differs`, `header Accept differs`, `body differs`, `already replayed`.
        public var reason: String
    }

    /// The cassette file.
    public var cassette: URL
    /// The request's method.
    public var method: String
    /// The request's URL, redacted as the cassette stores URLs.
    public var url: String
    /// The closest recorded requests, closest first (at most three).
    public var candidates: [Candidate]

    public var description: String {
        var text = "\(cassette.lastPathComponent) has no episode for \(method) \(url)"
        if candidates.isEmpty { return text + "; the cassette is empty" }
        text += "; closest recorded: "
        text += candidates.map { "#\($0.index) \($0.method) \($0.url) (\($0.reason))" }.joined(separator: ", ")
        return text
    }

    /// The distance between two strings in single-character edits, for ranking candidates.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
