#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The query items a ``Query`` block appends: what `Query("page", 2)` makes.
///
/// Items accumulate in declaration order; a `nil` value omits the item entirely. Names and values
/// are percent-encoded, including `&`, `=`, `+` and `#`.
public struct QueryItems: RequestBuildable {
    /// The items, or how to produce them from the request's form encoder when the block is applied.
    enum Content {
        case items([(name: String, value: String?)])
        case encoded(@Sendable (URLFormEncoder) throws -> [(name: String, value: String?)])
    }

    let content: Content
    let source: String

    init(items: [(name: String, value: String?)], source: String) {
        self.content = .items(items)
        self.source = source
    }

    init(source: String, encoding: @escaping @Sendable (URLFormEncoder) throws -> [(name: String, value: String?)]) {
        self.content = .encoded(encoding)
        self.source = source
    }

    public func apply(to draft: inout RequestDraft) throws {
        let items: [(name: String, value: String?)]
        switch content {
        case .items(let ready):
            items = ready
        case .encoded(let encode):
            do {
                items = try encode(draft.options[URLFormEncoderOption.self])
            } catch var error as CourierError {
                if error.source == nil { error.source = source }
                throw error
            } catch {
                throw CourierError(.encodingFailed, "could not encode the query", source: source, underlying: error)
            }
        }
        guard !items.isEmpty else { return }
        let encoded = PercentEncoding.encodeQuery(items, allowing: PercentEncoding.queryComponent)
        if case .absolute(var text) = draft.urlStorage {
            text.query = Self.appending(encoded, to: text.query)
            draft.urlStorage = .absolute(text)
        } else {
            draft.url.percentEncodedQuery = Self.appending(encoded, to: draft.url.percentEncodedQuery)
        }
    }

    /// `query` with more items after an `&`, or the items alone when there is no query yet.
    private static func appending(_ items: String, to query: String?) -> String {
        guard let query, !query.isEmpty else { return items }
        return query + "&" + items
    }
}
