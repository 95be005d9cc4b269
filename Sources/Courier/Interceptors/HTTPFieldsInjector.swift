public import HTTPTypes
public import Tracing

/// Writes a tracer's propagation values (W3C `traceparent` and `tracestate`, baggage…) into
/// request header fields, replacing any value already there.
public struct HTTPFieldsInjector: Injector {
    /// Creates an injector.
    public init() {}

    /// Sets header `key` to `value`; a key that is not a valid field name is skipped.
    public func inject(_ value: String, forKey key: String, into carrier: inout HTTPFields) {
        guard let name = HTTPField.Name(key) else { return }
        carrier[name] = value
    }
}
