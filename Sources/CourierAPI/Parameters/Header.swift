/// A request header: `@Header("Authorization") token: String` on a struct endpoint,
/// `customHeader: Header<String>` in an `@API` protocol (sent as `Custom-Header`), and the core's
/// header names (`Header.accept.setValue(…)`, `Header.custom("X-Trace")`).
///
/// One type serves all three because `import CourierAPI` puts this `Header` in front of the core's;
/// its static members return the core's `HeaderName`s unchanged.
@propertyWrapper
public struct Header<Value> {
    /// The parameter's value.
    public var wrappedValue: Value
    /// The header's name, when it differs from the one derived from the parameter's label.
    public let name: String?

    /// Wraps a parameter's value; `name` is read by the endpoint macros.
    public init(wrappedValue: Value, _ name: String? = nil) {
        self.wrappedValue = wrappedValue
        self.name = name
    }

    /// Wraps a value passed to a `Header<Value>` parameter.
    public init(_ value: Value) {
        self.init(wrappedValue: value)
    }
}

extension Header: Sendable where Value: Sendable {}

extension Header: ExpressibleByUnicodeScalarLiteral where Value: ExpressibleByStringLiteral {
    public init(unicodeScalarLiteral value: Value.StringLiteralType) { self.init(Value(stringLiteral: value)) }
}

extension Header: ExpressibleByExtendedGraphemeClusterLiteral where Value: ExpressibleByStringLiteral {
    public init(extendedGraphemeClusterLiteral value: Value.StringLiteralType) {
        self.init(Value(stringLiteral: value))
    }
}

extension Header: ExpressibleByStringLiteral where Value: ExpressibleByStringLiteral {
    public init(stringLiteral value: Value.StringLiteralType) { self.init(Value(stringLiteral: value)) }
}

extension Header: ExpressibleByIntegerLiteral where Value: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Value.IntegerLiteralType) { self.init(Value(integerLiteral: value)) }
}

extension Header where Value == HeaderName {
    /// The `Content-Type` field.
    public static var contentType: HeaderName { Courier.Header.contentType }
    /// The `Accept` field.
    public static var accept: HeaderName { Courier.Header.accept }
    /// The `Authorization` field.
    public static var authorization: HeaderName { Courier.Header.authorization }
    /// The `User-Agent` field.
    public static var userAgent: HeaderName { Courier.Header.userAgent }
    /// The `Origin` field.
    public static var origin: HeaderName { Courier.Header.origin }
    /// `Cookie`; `addValue` joins with `; `.
    public static var cookie: HeaderName { Courier.Header.cookie }
    /// The `Referer` field.
    public static var referer: HeaderName { Courier.Header.referer }
    /// The `Host` field.
    public static var host: HeaderName { Courier.Header.host }
    /// The `Accept-Language` field.
    public static var acceptLanguage: HeaderName { Courier.Header.acceptLanguage }
    /// The `Accept-Encoding` field.
    public static var acceptEncoding: HeaderName { Courier.Header.acceptEncoding }
    /// The `Cache-Control` field.
    public static var cacheControl: HeaderName { Courier.Header.cacheControl }

    /// Any header field by name; an invalid name fails the build.
    public static func custom(_ name: String) -> HeaderName { Courier.Header.custom(name) }
}

extension Header: ExpressibleByFloatLiteral where Value: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Value.FloatLiteralType) { self.init(wrappedValue: Value(floatLiteral: value)) }
}

extension Header: ExpressibleByArrayLiteral where Value: RangeReplaceableCollection {
    public init(arrayLiteral elements: Value.Element...) { self.init(wrappedValue: Value(elements)) }
}
