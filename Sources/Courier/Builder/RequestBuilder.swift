#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The result builder behind `Request { … }`: one block per piece of the wire request.
///
/// Only `RequestBuildable` blocks are accepted, plus shorthands: a string literal appends its
/// path segments, a `String` value one path component, a `URLQueryItem` a query item, `Data` (or
/// `(Data, mediaType)`) is the body, and, with `import CourierFoundation`, `URLRequestHeader` and
/// `URLRequestUpdating` values apply. Any other value is a compile-time error, never a silent
/// no-op. `if`, `if let`, `else`, `switch`, `for` and `#available` work.
@resultBuilder
public enum RequestBuilder {
    public static func buildExpression(_ block: some RequestBuildable) -> any RequestBuildable {
        block
    }

    /// A string value appends one path component: `userID` is `PathComponent(userID)`, so user
    /// input stays inside its segment. A string literal is `PathSegments` instead (`"v1/users"`).
    @_disfavoredOverload
    public static func buildExpression(_ segment: String) -> any RequestBuildable {
        PathComponent(segment)
    }

    /// A query item appends it to the query: `URLQueryItem(name: "q", value: "swift")` is `Query("q", "swift")`.
    ///
    /// A `nil` value writes the name alone (`Query(flag:)`), as `URLComponents` does, rather than dropping the item.
    public static func buildExpression(_ item: URLQueryItem) -> any RequestBuildable {
        item.value.map { Query(item.name, $0) } ?? Query(flag: item.name)
    }

    /// A string literal appends its slash-separated segments: `"v1/accounts"` (see `PathSegments`).
    ///
    /// Chosen over the `String` form for literals only (that form is disfavoured); a string value
    /// stays one segment.
    public static func buildExpression(_ path: PathSegments) -> any RequestBuildable {
        path
    }

    /// `Data` is the body, with no `Content-Type` of its own.
    public static func buildExpression(_ body: Data) -> any RequestBuildable {
        RequestBody.data(body)
    }

    /// `(data, "image/jpeg")` is the body with that media type.
    public static func buildExpression(_ body: (Data, String)) -> any RequestBuildable {
        RequestBody.data(body.0, type: MIMEType(body.1))
    }

    /// The blocks of one closure, in the one array the call passes: each block is its own
    /// component (an `if` or `for` is one group among them), so a closure of six blocks costs one
    /// array rather than one per block and another to join them.
    public static func buildBlock(_ blocks: any RequestBuildable...) -> RequestBlockGroup {
        RequestBlockGroup(blocks)
    }

    public static func buildOptional(_ group: RequestBlockGroup?) -> RequestBlockGroup {
        group ?? RequestBlockGroup([])
    }

    public static func buildEither(first group: RequestBlockGroup) -> RequestBlockGroup { group }

    public static func buildEither(second group: RequestBlockGroup) -> RequestBlockGroup { group }

    public static func buildArray(_ groups: [RequestBlockGroup]) -> RequestBlockGroup {
        RequestBlockGroup(joining: groups)
    }

    public static func buildLimitedAvailability(_ group: RequestBlockGroup) -> RequestBlockGroup { group }
}
