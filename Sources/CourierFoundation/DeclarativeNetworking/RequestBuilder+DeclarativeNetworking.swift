public import Courier
public import Foundation

/// The shorthands of DeclarativeNetworking that need Foundation: its header and `updating { }` values.
extension RequestBuilder {
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
