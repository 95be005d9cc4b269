/// Several headers from one dictionary parameter: `@HeaderMap headers: [String: String]`.
@propertyWrapper
public struct HeaderMap: Sendable {
    /// The headers, by name.
    public var wrappedValue: [String: String]

    /// Wraps a parameter's value.
    public init(wrappedValue: [String: String]) {
        self.wrappedValue = wrappedValue
    }
}
