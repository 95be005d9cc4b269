import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The URL text a `BaseURL` gives a new draft, by the base's own text.
///
/// A client builds most of its requests against one or two base URLs, and checking and parsing
/// one costs more than the rest of a small request together (RFC 3986 parsing, host checks,
/// `URLComponents`' setters). Only a base applied to a draft with no URL yet is looked up, since
/// the result then depends on the text alone; failures are not kept, so each one throws afresh.
final class BaseURLCache: Sendable {
    static let shared = BaseURLCache()

    /// Enough for the base URLs of one process; when full, it starts again rather than growing
    /// with URLs a caller makes up per request.
    private static let capacity = 64
    private let entries = Protected<[String: AbsoluteURLText]>([:])

    func text(for base: String) -> AbsoluteURLText? {
        entries.withLock { $0[base] }
    }

    func remember(_ text: AbsoluteURLText, for base: String) {
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[base] = text
        }
    }
}
