/// Header fields by name: `Header.accept.setValue("application/json")`,
/// `Header.custom("X-Trace").addValue("a")`; with CourierAPI, `@Header("Authorization") token:
/// String` on a struct endpoint and `customHeader: Header<String>` in an `@API` protocol (sent as
/// `Custom-Header`).
///
/// One declaration serves all three, so a file importing `Courier`, `CourierCurl` and `CourierAPI`
/// together finds one `Header`. `setValue` replaces every line of that name; `addValue` joins the
/// new value to the existing one with `, `, as `URLRequest.addValue(_:forHTTPHeaderField:)` does.
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

extension Header: ExpressibleByFloatLiteral where Value: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Value.FloatLiteralType) { self.init(wrappedValue: Value(floatLiteral: value)) }
}

extension Header: ExpressibleByArrayLiteral where Value: RangeReplaceableCollection {
    public init(arrayLiteral elements: Value.Element...) { self.init(wrappedValue: Value(elements)) }
}

extension Header where Value == HeaderName {
    /// The `Content-Type` field.
    public static var contentType: HeaderName { HeaderName("Content-Type", block: "Header.contentType") }
    /// The `Accept` field.
    public static var accept: HeaderName { HeaderName("Accept", block: "Header.accept") }
    /// The `Authorization` field.
    public static var authorization: HeaderName { HeaderName("Authorization", block: "Header.authorization") }
    /// The `User-Agent` field.
    public static var userAgent: HeaderName { HeaderName("User-Agent", block: "Header.userAgent") }
    /// The `Origin` field.
    public static var origin: HeaderName { HeaderName("Origin", block: "Header.origin") }
    /// `Cookie`; `addValue` joins with `; ` as RFC 6265 requires a single Cookie line.
    public static var cookie: HeaderName { HeaderName("Cookie", block: "Header.cookie", separator: "; ") }
    /// The `Referer` field.
    public static var referer: HeaderName { HeaderName("Referer", block: "Header.referer") }
    /// The `Host` field.
    public static var host: HeaderName { HeaderName("Host", block: "Header.host") }
    /// The `Accept-Language` field.
    public static var acceptLanguage: HeaderName { HeaderName("Accept-Language", block: "Header.acceptLanguage") }
    /// The `Accept-Encoding` field.
    public static var acceptEncoding: HeaderName { HeaderName("Accept-Encoding", block: "Header.acceptEncoding") }
    /// The `Cache-Control` field.
    public static var cacheControl: HeaderName { HeaderName("Cache-Control", block: "Header.cacheControl") }

    /// Any header field by name; an invalid name fails the build.
    public static func custom(_ name: String) -> HeaderName {
        HeaderName(name, block: "Header.custom")
    }
}

/// A header field name, from which blocks that set, add or remove it are made.
public struct HeaderName: Sendable, Hashable {
    /// The field name as given.
    public let name: String
    let block: String
    let separator: String

    init(_ name: String, block: String, separator: String = ", ") {
        self.name = name
        self.block = block
        self.separator = separator
    }

    /// A block that replaces every line of this field with `value`.
    public func setValue(_ value: String) -> HeaderBlock { HeaderBlock(self, .set(value)) }

    /// A block that joins `value` to this field's existing value, or adds the field.
    public func addValue(_ value: String) -> HeaderBlock { HeaderBlock(self, .add(value)) }

    /// A block that removes every line of this field.
    public func remove() -> HeaderBlock { HeaderBlock(self, .remove) }
}

/// Sets, adds to, or removes one header field; made by `Header`.
public struct HeaderBlock: RequestBuildable, Sendable {
    enum Edit: Sendable {
        case set(String)
        case add(String)
        case remove
    }

    let name: HeaderName
    let edit: Edit

    init(_ name: HeaderName, _ edit: Edit) {
        self.name = name
        self.edit = edit
    }

    public func apply(to draft: inout RequestDraft) throws {
        switch edit {
        case .set(let value):
            try draft.setHeader(name.name, value, block: name.block)
        case .add(let value):
            try draft.addHeader(name.name, value, separator: name.separator, block: name.block)
        case .remove:
            try draft.removeHeader(name.name, block: name.block)
        }
    }
}
