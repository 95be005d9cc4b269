import Foundation

/// Query items: `Query("page", 2)` appends `page=2`; items accumulate in declaration order.
///
/// A `nil` value omits the item entirely, so optional filters read naturally:
/// `Query("cursor", cursor)`. Names and values are percent-encoded, including `&`, `=`, `+` and `#`.
public struct Query: RequestBuildable {
    let items: [(name: String, value: String?)]
    let source: String

    /// Appends `name=value`; nothing when `value` is `nil`.
    public init(_ name: String, _ value: String?) {
        self.items = value.map { [(name, $0)] } ?? []
        self.source = "Query"
    }

    /// Appends `name=value` using the value's description (`Query("page", 2)`); nothing when `nil`.
    public init(_ name: String, _ value: (some CustomStringConvertible)?) {
        self.init(name, value.map(\.description))
    }

    /// Appends a name with no value (`?flag`).
    public init(flag name: String) {
        self.items = [(name, nil)]
        self.source = "Query"
    }

    init(items: [(name: String, value: String?)], source: String) {
        self.items = items
        self.source = source
    }

    public func apply(to draft: inout RequestDraft) throws {
        guard !items.isEmpty else { return }
        let encoded = PercentEncoding.encodeQuery(items, allowing: PercentEncoding.queryComponent)
        if let existing = draft.url.percentEncodedQuery, !existing.isEmpty {
            draft.url.percentEncodedQuery = existing + "&" + encoded
        } else {
            draft.url.percentEncodedQuery = encoded
        }
    }
}
