public import Courier
public import Foundation

/// The shorthands DeclarativeNetworking's `updating { }` blocks use, so its code compiles as written.
extension RequestBuilder {
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

    /// A `URLRequestHeader` sets its field where it is written.
    public static func buildExpression(_ header: some URLRequestHeader) -> any RequestBuildable {
        URLRequestHeaderBlock(name: header.name, value: header.value)
    }

    /// A `URLRequestUpdating` runs on the complete request.
    @_disfavoredOverload
    public static func buildExpression(_ updating: some URLRequestUpdating) -> any RequestBuildable {
        URLRequestUpdatingBlock(updating: updating)
    }
}
