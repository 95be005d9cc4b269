/// The result builder behind `Request { … }`: one block per piece of the wire request.
///
/// Only `RequestBuildable` blocks are accepted, plus two shorthands: a bare `String` appends a
/// path component and a `URLQueryItem` appends a query item. Any other value is a compile-time
/// error, never a silent no-op. `if`, `if let`, `else`, `switch`, `for` and `#available` work.
@resultBuilder
public enum RequestBuilder {
    public static func buildExpression(_ block: some RequestBuildable) -> RequestBlockGroup {
        RequestBlockGroup([block])
    }

    public static func buildBlock(_ groups: RequestBlockGroup...) -> RequestBlockGroup {
        RequestBlockGroup(groups.flatMap(\.blocks))
    }

    public static func buildOptional(_ group: RequestBlockGroup?) -> RequestBlockGroup {
        group ?? RequestBlockGroup([])
    }

    public static func buildEither(first group: RequestBlockGroup) -> RequestBlockGroup { group }

    public static func buildEither(second group: RequestBlockGroup) -> RequestBlockGroup { group }

    public static func buildArray(_ groups: [RequestBlockGroup]) -> RequestBlockGroup {
        RequestBlockGroup(groups.flatMap(\.blocks))
    }

    public static func buildLimitedAvailability(_ group: RequestBlockGroup) -> RequestBlockGroup { group }
}
