/// One part of a `@Multipart` body from `Data`, `String` or a file `URL`:
/// `@Part(name: "photo", filename: "a.jpg", mimeType: "image/jpeg") photo: Data`, `file: Part<URL>`.
@propertyWrapper
public struct Part<Value> {
    /// The parameter's value.
    public var wrappedValue: Value
    /// The part's name, when it differs from the parameter's label.
    public let name: String?
    /// The file name sent in `Content-Disposition`; a file `URL` defaults to its last component.
    public let filename: String?
    /// The part's `Content-Type`.
    public let mimeType: String?

    /// Wraps a parameter's value; the rest is read by the endpoint macros.
    public init(wrappedValue: Value, name: String? = nil, filename: String? = nil, mimeType: String? = nil) {
        self.wrappedValue = wrappedValue
        self.name = name
        self.filename = filename
        self.mimeType = mimeType
    }

    /// Wraps a value passed to a `Part<Value>` parameter.
    public init(_ value: Value) {
        self.init(wrappedValue: value)
    }
}

extension Part: Sendable where Value: Sendable {}

extension Part: ExpressibleByUnicodeScalarLiteral where Value: ExpressibleByStringLiteral {
    public init(unicodeScalarLiteral value: Value.StringLiteralType) { self.init(Value(stringLiteral: value)) }
}

extension Part: ExpressibleByExtendedGraphemeClusterLiteral where Value: ExpressibleByStringLiteral {
    public init(extendedGraphemeClusterLiteral value: Value.StringLiteralType) {
        self.init(Value(stringLiteral: value))
    }
}

extension Part: ExpressibleByStringLiteral where Value: ExpressibleByStringLiteral {
    public init(stringLiteral value: Value.StringLiteralType) { self.init(Value(stringLiteral: value)) }
}

extension Part: ExpressibleByIntegerLiteral where Value: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Value.IntegerLiteralType) { self.init(Value(integerLiteral: value)) }
}

extension Part: ExpressibleByBooleanLiteral where Value: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Value.BooleanLiteralType) { self.init(Value(booleanLiteral: value)) }
}

extension Part: ExpressibleByFloatLiteral where Value: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Value.FloatLiteralType) { self.init(wrappedValue: Value(floatLiteral: value)) }
}

extension Part: ExpressibleByArrayLiteral where Value: RangeReplaceableCollection {
    public init(arrayLiteral elements: Value.Element...) { self.init(wrappedValue: Value(elements)) }
}
